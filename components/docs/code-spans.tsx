/** Text from the OpenAPI document with its `backtick` spans set as code (the only markup it uses). */
export function CodeSpans({ text }: { text: string }) {
  return text.split("`").map((part, i) =>
    i % 2 ? (
      <code key={i} className="font-mono">
        {part}
      </code>
    ) : (
      part
    ),
  );
}
