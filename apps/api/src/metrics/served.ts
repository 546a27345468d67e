/**
 * What the visitor side served, as plain integers: incrementing one costs the redirect path
 * nothing measurable (no label object, no map lookup); the metrics module reads them on scrape.
 */
export const served = {
  redirects: 0,
};
