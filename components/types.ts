/** The list envelope of the API and of the dashboard's JSON routes. */
export type Page<T> = { data: T[]; total: number; page: number; limit: number };
