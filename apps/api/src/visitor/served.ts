import { Injectable } from '@nestjs/common';

/**
 * What the visitor side served, as plain integers: incrementing one costs the redirect path
 * nothing measurable (no label object, no map lookup); the metrics read them on scrape. One
 * instance per app (VisitorModule provides it; each Visit carries it to the answers).
 */
@Injectable()
export class Served {
  redirects = 0;
}
