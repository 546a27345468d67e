import { AppError, ErrorEntry } from '@app/common';

/**
 * The error entries an operation fails with. Fails the test when the operation succeeds or throws
 * anything but an AppError. Import it from '@app/testing/app-error-entries' in unit tests, which
 * do not need the rest of @app/testing.
 */
export async function rejectionEntries(
  operation: Promise<unknown> | (() => unknown),
): Promise<ErrorEntry[]> {
  try {
    await (typeof operation === 'function' ? operation() : operation);
  } catch (error) {
    return entriesOf(error);
  }
  throw new Error('expected an AppError, but the operation succeeded');
}

/** The synchronous form of rejectionEntries. */
export function thrownEntries(operation: () => unknown): ErrorEntry[] {
  try {
    operation();
  } catch (error) {
    return entriesOf(error);
  }
  throw new Error('expected an AppError, but the operation succeeded');
}

function entriesOf(error: unknown): ErrorEntry[] {
  if (error instanceof AppError) {
    return error.toEntries();
  }
  throw error;
}
