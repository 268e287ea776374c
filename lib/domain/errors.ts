/**
 * What the read models and services refuse, in domain terms; lib/api/errors.ts maps each to the
 * API's error contract in one place, so nothing below the route layer speaks HTTP.
 */
export class DomainError extends Error {}

/** An input the rules reject; `param` names it as the caller sent it. */
export class InvalidInput extends DomainError {
  constructor(
    readonly param: string,
    message: string,
  ) {
    super(message);
  }
}

/** The thing asked for does not exist, or belongs to someone else (indistinguishable on purpose). */
export class NotFound extends DomainError {}

/** Not allowed, typically by the account's plan; `param` names the field that asked for it. */
export class Forbidden extends DomainError {
  constructor(
    message: string,
    readonly param?: string,
  ) {
    super(message);
  }
}
