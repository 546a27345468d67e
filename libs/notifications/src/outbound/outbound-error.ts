/** A delivery that failed before or while talking to the target; the message is shown to users. */
export class OutboundError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OutboundError';
  }
}
