import { buildHandlerSettings } from './handler-settings.validation';

describe(buildHandlerSettings.name, () => {
  const SLACK = 'https://hooks.slack.com/services/T1/B2/abcdef';

  it('takes the fields of the kind and ignores the others', () => {
    expect(buildHandlerSettings('slack', { slack: SLACK, email: 'a@b.co', name: 'n' }, {})).toEqual(
      {
        settings: { slack: SLACK },
        problems: [],
        generatedSecret: null,
      },
    );
  });

  it('keeps a current value that is not sent, or sent empty', () => {
    expect(buildHandlerSettings('slack', {}, { slack: SLACK }).settings).toEqual({ slack: SLACK });
    expect(buildHandlerSettings('slack', { slack: '' }, { slack: SLACK }).settings).toEqual({
      slack: SLACK,
    });
  });

  it('generates a webhook secret when none is given or stored, and keeps a stored one', () => {
    const built = buildHandlerSettings('webhook', { webhook: 'https://example.com/h' }, {});
    expect(built.problems).toEqual([]);
    expect(built.generatedSecret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(built.settings).toEqual({
      webhook: 'https://example.com/h',
      webhook_secret: built.generatedSecret,
    });
    const kept = buildHandlerSettings('webhook', {}, built.settings);
    expect(kept).toEqual({ settings: built.settings, problems: [], generatedSecret: null });
  });

  it('names every missing and every malformed field', () => {
    expect(
      buildHandlerSettings('telegram', { telegram_chat_id: 'not a chat' }, {}).problems,
    ).toEqual([
      { title: 'telegram is required for type telegram.', field: 'telegram' },
      {
        title: 'telegram_chat_id must be a chat id (a number) or a @channelname.',
        field: 'telegram_chat_id',
      },
    ]);
  });

  it.each([
    ['slack', 'https://hooks.slack.com.evil.io/services/x'],
    ['slack', 'https://user@hooks.slack.com/services/x'],
    ['slack', 'https://hooks.slack.com:8443/services/x'],
    ['discord', 'https://discord.com.evil.io/api/webhooks/1/x'],
    ['microsoft_teams', 'http://contoso.webhook.office.com/x'],
    ['google_chat', 'https://chat.googleapis.com.evil.io/v1/spaces/A/messages?key=k'],
    ['webhook', 'https://user:pw@example.com/'],
  ])('refuses %s %s', (type, url) => {
    const built = buildHandlerSettings(type as 'slack', { [type]: url }, {});
    expect(built.problems.map((p) => p.field)).toEqual([type]);
  });

  it.each([
    ['slack', 'https://hooks.slack.com/workflows/T1/A2/3/abc'],
    ['discord', 'https://canary.discord.com/api/webhooks/1/x_y-z'],
    ['discord', 'https://discordapp.com/api/webhooks/1/x'],
    [
      'microsoft_teams',
      'https://prod-01.westus.logic.azure.com/workflows/x/triggers/manual/paths/invoke?sig=1',
    ],
    ['microsoft_teams', 'https://default1.environment.api.powerplatform.com/powerautomate/x'],
    ['webhook', 'http://example.com/hook?x=1'],
  ])('accepts %s %s', (type, url) => {
    expect(buildHandlerSettings(type as 'slack', { [type]: url }, {}).problems).toEqual([]);
  });
});
