import { startTestDnsServer, TestDnsServer } from '@app/testing/dns-server';
import { DnsTxtResolver } from './dns-txt.resolver';

/** Against a real DNS server on 127.0.0.1, so that node's resolver and its error codes are real. */
describe(DnsTxtResolver.name, () => {
  let dns: TestDnsServer;
  let resolver: DnsTxtResolver;

  beforeAll(async () => {
    dns = await startTestDnsServer();
    resolver = new DnsTxtResolver({ servers: [dns.address], timeoutMs: 200, tries: 1 });
  });
  afterAll(() => dns.close());

  it('returns every TXT value of the name', async () => {
    dns.records.set('_linkdock.a.example', ['v=spf1 -all', 'linkdock-verify=abc']);
    expect(await resolver.lookup('_linkdock.a.example')).toEqual({
      found: ['v=spf1 -all', 'linkdock-verify=abc'],
    });
    expect(dns.asked).toContain('_linkdock.a.example');
  });

  it('joins the character-strings of one long record', async () => {
    const long = `linkdock-verify=${'x'.repeat(300)}`;
    dns.records.set('_linkdock.long.example', [long]);
    expect(await resolver.lookup('_linkdock.long.example')).toEqual({ found: [long] });
  });

  it('reports a name that does not exist as nxdomain', async () => {
    expect(await resolver.lookup('_linkdock.missing.example')).toEqual({
      failure: 'nxdomain',
      code: 'ENOTFOUND',
    });
  });

  it('reports a name without TXT records as no_records', async () => {
    dns.records.set('_linkdock.empty.example', []);
    expect(await resolver.lookup('_linkdock.empty.example')).toEqual({
      failure: 'no_records',
      code: 'ENODATA',
    });
  });

  it('reports a server that does not answer as a timeout', async () => {
    dns.records.set('_linkdock.silent.example', 'silent');
    expect(await resolver.lookup('_linkdock.silent.example')).toEqual({
      failure: 'timeout',
      code: 'ETIMEOUT',
    });
  });
});
