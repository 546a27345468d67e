import { markup } from './html';

/** What a link-preview page shows; every value is escaped by `markup` (attribute context too). */
export interface PreviewPageValues {
  title: string | null;
  description: string | null;
  /** Absolute URL of the 1200x630 JPEG, or null. */
  image: string | null;
  /** The short URL (og:url). */
  url: string;
  /** Where the page's meta refresh goes, or null for none (protected links). */
  refresh: string | null;
}

/**
 * The page link-preview fetchers get: Open Graph and Twitter card tags, and for unprotected links
 * a meta refresh to the destination (for a person who opens it anyway).
 */
export function previewPage(v: PreviewPageValues): string {
  return markup`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${v.title ?? ''}</title>
<meta property="og:type" content="website">
<meta property="og:url" content="${v.url}">
${
  v.title !== null &&
  markup`<meta property="og:title" content="${v.title}">
<meta name="twitter:title" content="${v.title}">
`
}${
    v.description !== null &&
    markup`<meta property="og:description" content="${v.description}">
<meta name="description" content="${v.description}">
<meta name="twitter:description" content="${v.description}">
`
  }${
    v.image !== null &&
    markup`<meta property="og:image" content="${v.image}">
<meta property="og:image:width" content="1200">
<meta property="og:image:height" content="630">
<meta name="twitter:image" content="${v.image}">
`
  }<meta name="twitter:card" content="summary_large_image">
${
  v.refresh !== null &&
  markup`<meta http-equiv="refresh" content="0; url=${v.refresh}">
`
}</head>
<body>${v.title !== null && markup`<h1>${v.title}</h1>`}${v.description !== null && markup`<p>${v.description}</p>`}</body>
</html>
`.value;
}
