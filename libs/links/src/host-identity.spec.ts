import { hostIdentity, LOOPBACK_HOST, serverIdentity } from './host-identity';

/** The identity of a URL's host, read as the links service reads destinations. */
function identityOf(url: string): string {
  return hostIdentity(new URL(url).hostname);
}

describe(hostIdentity.name, () => {
  it.each([
    ['https://Links.Example.COM/x', 'links.example.com'],
    ['https://links.example.com./x', 'links.example.com'],
    ['https://links.example.com../x', 'links.example.com'],
    ['https://bücher.example/', 'xn--bcher-kva.example'],
    ['https://%6c%69nks.example/', 'links.example'],
    ['http://93.184.216.34:8080/', '93.184.216.34'],
    ['http://1572395042/', '93.184.216.34'],
    ['http://[::ffff:93.184.216.34]/', '93.184.216.34'],
    ['http://[::FFFF:5DB8:D822]/', '93.184.216.34'],
    ['http://[2606:4700:0:0:0:0:0:1111]/', '2606:4700::1111'],
    ['http://10.0.0.1/', '10.0.0.1'],
  ])('reads %s as %s', (url, identity) => {
    expect(identityOf(url)).toBe(identity);
  });

  it.each([
    'http://localhost:3000/x',
    'http://LOCALHOST./x',
    'http://app.localhost/x',
    'http://a.b.Localhost./x',
    'http://127.0.0.1:3000/x',
    'http://127.0.0.1.:3000/x',
    'http://127.8.9.10/x',
    'http://127.1/x',
    'http://2130706433/x',
    'http://0x7f000001/x',
    'http://0x7f.1/x',
    'http://0177.0.0.1/x',
    'http://[::1]/x',
    'http://[0:0:0:0:0:0:0:1]/x',
    'http://[::ffff:127.0.0.1]:3000/x',
    'http://[::ffff:7f00:1]/x',
    'http://[::ffff:127.200.0.1]/x',
    'http://0.0.0.0/x',
    'http://0/x',
    'http://[::]/x',
    'http://[::ffff:0.0.0.0]/x',
  ])('reads the loopback spelling %s as the one local host', (url) => {
    expect(identityOf(url)).toBe(LOOPBACK_HOST);
  });

  it.each(['http://localhost.example.com/', 'http://mylocalhost/', 'http://128.0.0.1/'])(
    'does not read %s as loopback',
    (url) => {
      expect(identityOf(url)).not.toBe(LOOPBACK_HOST);
    },
  );
});

describe(serverIdentity.name, () => {
  it.each([
    ['http://localhost:3000/', 'http://[::ffff:127.0.0.1]:3000/x', true],
    ['http://127.0.0.1/', 'http://localhost:80/x', true],
    ['https://localhost/', 'https://[::1]:443/x', true],
    ['http://localhost:3000/', 'http://127.0.0.1:8080/x', false],
    ['http://localhost/', 'https://localhost/x', false],
    ['https://links.example/', 'https://links.example:8443/x', true],
  ])('%s and %s are the same server: %s', (app, destination, same) => {
    expect(serverIdentity(new URL(destination)) === serverIdentity(new URL(app))).toBe(same);
  });
});
