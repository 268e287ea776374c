const ERROR_CLASS =
  "rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800 " +
  "dark:border-red-800 dark:bg-red-950 dark:text-red-200";

export function ErrorMessage({ children }: { children: React.ReactNode }) {
  return (
    <p role="alert" className={ERROR_CLASS}>
      {children}
    </p>
  );
}
