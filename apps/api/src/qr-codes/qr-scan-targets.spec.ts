import type { AppConfig } from '@app/config';
import type { DomainsRepository, LinksRepository } from '@app/database';
import { QrScanTargets } from './qr-scan-targets';

describe(QrScanTargets.name, () => {
  function targets() {
    const asked: string[] = [];
    const links = {
      findOwnedIdByAlias: (owner: number, domain: number, alias: string) => {
        asked.push(`link ${owner} ${domain} ${alias}`);
        return Promise.resolve(alias === 'menu' ? 40 + domain : null);
      },
    } as unknown as LinksRepository;
    const domains = {
      findOwnedIdByAddress: (owner: number, scheme: string, host: string) => {
        asked.push(`domain ${owner} ${scheme}${host}`);
        return Promise.resolve(scheme === 'https://' && host === 'go.brand.example' ? 2 : null);
      },
    } as unknown as DomainsRepository;
    const config = { appUrl: 'https://links.test' } as AppConfig;
    return { subject: new QrScanTargets(links, domains, config), asked };
  }

  it("finds the owner's link of a short URL on the main domain, whatever its query and fragment", async () => {
    const { subject, asked } = targets();
    expect(await subject.linkOf(7, 'https://links.test/menu')).toBe(40);
    expect(await subject.linkOf(7, 'https://LINKS.test:443/menu?utm_source=x#top')).toBe(40);
    expect(await subject.linkOf(7, 'https://links.test/other')).toBeNull();
    expect(asked).toEqual(['link 7 0 menu', 'link 7 0 menu', 'link 7 0 other']);
  });

  it("finds it on the owner's custom domain, by scheme and host", async () => {
    const { subject, asked } = targets();
    expect(await subject.linkOf(7, 'https://go.brand.example/menu')).toBe(42);
    expect(await subject.linkOf(7, 'http://go.brand.example/menu')).toBeNull();
    expect(asked).toEqual([
      'domain 7 https://go.brand.example',
      'link 7 2 menu',
      'domain 7 http://go.brand.example',
    ]);
  });

  it('asks nothing for what no short URL can be', async () => {
    const { subject, asked } = targets();
    for (const url of [
      'https://links.test/',
      'https://links.test/menu/',
      'https://links.test/a/b',
      'https://links.test/v%20x',
      'https://user:pw@links.test/menu',
      'https://go.brand.example:8443/menu',
      'not a url',
    ]) {
      expect([url, await subject.linkOf(7, url)]).toEqual([url, null]);
    }
    expect(asked).toEqual([]);
  });
});
