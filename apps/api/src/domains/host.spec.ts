import { hostProblem, normaliseHost } from './host';

describe(normaliseHost.name, () => {
  it.each([
    ['  Links.Example.COM  ', 'links.example.com'],
    ['https://links.example.com/some/path?q=1#top', 'links.example.com'],
    ['HTTP://links.example.com', 'links.example.com'],
    ['links.example.com.', 'links.example.com'],
    ['links.example.com/', 'links.example.com'],
    ['bücher.example', 'xn--bcher-kva.example'],
    ['https://Münchën.DE/', 'xn--mnchn-qsa9i.de'],
    ['links.example.com:8080', 'links.example.com:8080'],
    ['', ''],
  ])('turns %p into %p', (raw, host) => {
    expect(normaliseHost(raw)).toBe(host);
  });
});

describe(hostProblem.name, () => {
  it.each(['links.example.com', 'a.b', 'xn--bcher-kva.example', `${'a'.repeat(63)}.com`, 'x-1.co'])(
    'accepts %s',
    (host) => {
      expect(hostProblem(host)).toBeNull();
    },
  );

  const labels =
    'must be a domain name whose labels are 1 to 63 letters, digits or hyphens, not starting or ending with a hyphen';
  it.each([
    ['', 'is required'],
    ['example', 'must have at least two labels, such as links.example.com'],
    ['localhost', 'must have at least two labels, such as links.example.com'],
    ['app.localhost', 'must not be localhost'],
    ['192.168.1.10', 'must be a domain name, not an IP address'],
    ['::1', 'must be a domain name, not an IP address'],
    ['[::1]', 'must be a domain name, not an IP address'],
    ['1.2.3', 'must be a domain name, not an IP address'],
    ['example.com:443', 'must be a domain name without a port'],
    ['user@example.com', 'must be a domain name such as links.example.com, without a user name'],
    [`${'a'.repeat(64)}.com`, labels],
    ['-a.example.com', labels],
    ['a-.example.com', labels],
    ['a..example.com', labels],
    ['under_score.example.com', labels],
    ['sp ace.example.com', labels],
    [`${'abcdefghi.'.repeat(26)}com`, 'must be at most 253 characters long'],
  ])('refuses %p: %s', (host, problem) => {
    expect(hostProblem(host)).toBe(problem);
  });
});
