/** Injection token of the key that signs visitor cookies and keys visitor hashes. */
export const VISITOR_SECRET = Symbol('VISITOR_SECRET');
