/** Injection token of the key that signs visitor cookies and keys visitor hashes. */
export const EDGE_SECRET = Symbol('EDGE_SECRET');
