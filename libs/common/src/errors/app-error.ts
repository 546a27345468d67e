import { ERROR_STATUS, ErrorCode, ErrorEntry } from './error-codes';

export interface Problem {
  title: string;
  field?: string;
  /** A more precise code for this entry than the error's own (same status). */
  code?: ErrorCode;
}

/** A failure the client can act on. The filter turns it into the contract's error body. */
export class AppError extends Error {
  readonly problems: readonly Problem[];

  constructor(
    readonly code: ErrorCode,
    problems: string | Problem | readonly Problem[],
    field?: string,
  ) {
    const list: Problem[] =
      typeof problems === 'string'
        ? [{ title: problems, field }]
        : Array.isArray(problems)
          ? [...(problems as readonly Problem[])]
          : [problems as Problem];
    super(list.map((p) => p.title).join(' '));
    this.name = 'AppError';
    this.problems = list;
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }

  toEntries(): ErrorEntry[] {
    return this.problems.map((p) => ({
      status: ERROR_STATUS[p.code ?? this.code],
      title: p.title,
      ...(p.field !== undefined ? { field: p.field } : {}),
      code: p.code ?? this.code,
    }));
  }
}

/** The resource does not exist or belongs to someone else: the two are indistinguishable. */
export class NotFoundError extends AppError {
  constructor(code: ErrorCode = 'not_found', what = 'resource') {
    super(code, `The ${what} you are looking for does not exist.`);
  }
}

/** A refusal that passes if the client waits: answered with `Retry-After` (seconds). */
export class RetryLaterError extends AppError {
  constructor(
    code: ErrorCode,
    title: string,
    readonly retryAfterSeconds: number,
  ) {
    super(code, title);
  }
}
