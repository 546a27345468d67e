import { oauth1Header, percentEncode } from './oauth1';

describe(oauth1Header.name, () => {
  // The worked example of X's (Twitter's) "Creating a signature" documentation.
  it('reproduces the documented signature', () => {
    const header = oauth1Header(
      'POST',
      'https://api.twitter.com/1.1/statuses/update.json',
      {
        consumerKey: 'xvz1evFS4wEEPTGEFPHBog',
        consumerSecret: 'kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw',
        token: '370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb',
        tokenSecret: 'LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE',
      },
      { include_entities: 'true', status: 'Hello Ladies + Gentlemen, a signed OAuth request!' },
      'kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg',
      1318622958,
    );
    expect(header).toBe(
      'OAuth oauth_consumer_key="xvz1evFS4wEEPTGEFPHBog", oauth_nonce="kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg", oauth_signature_method="HMAC-SHA1", oauth_timestamp="1318622958", oauth_token="370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb", oauth_version="1.0", oauth_signature="hCtSmYh%2BiHYCEqBWrE7C7hYmtUk%3D"',
    );
  });

  it('percent-encodes the characters encodeURIComponent leaves alone', () => {
    expect(percentEncode("a!b'c(d)e*f g")).toBe('a%21b%27c%28d%29e%2Af%20g');
  });
});
