import { SOCIAL_NETWORKS } from '@app/signatures';
import { buildBlockSettings, initialBlockSettings } from './block-settings.validation';

describe(buildBlockSettings.name, () => {
  it('starts a new block from its type, takes the sent fields and ignores the others', () => {
    expect(
      buildBlockSettings('heading', { text: ' Hi ', heading_type: 'h1', name: 'x' }, null),
    ).toEqual({ settings: { text: 'Hi', heading_type: 'h1' }, problems: [] });
    expect(buildBlockSettings('socials', { github: '@octocat' }, null).settings).toEqual({
      ...Object.fromEntries(SOCIAL_NETWORKS.map((n) => [n, null])),
      github: 'octocat',
    });
  });

  it('names each required field missing on create, and keeps them on update', () => {
    expect(buildBlockSettings('link', {}, null).problems).toEqual([
      { title: 'name is required for a link block.', field: 'name' },
      { title: 'location_url is required for a link block.', field: 'location_url' },
    ]);
    const current = { name: 'Shop', location_url: 'https://shop.example/' };
    expect(buildBlockSettings('link', { name: null }, current)).toEqual({
      settings: current,
      problems: [],
    });
    expect(buildBlockSettings('link', { name: ' ' }, current).problems).toEqual([
      { title: 'name is required for a link block.', field: 'name' },
    ]);
  });

  it('does not check a kept value again (a URL stored before credentials were refused)', () => {
    const current = { name: 'Old', location_url: 'https://user:pw@old.example/' };
    expect(buildBlockSettings('link', { name: 'New' }, current)).toEqual({
      settings: { name: 'New', location_url: current.location_url },
      problems: [],
    });
  });

  it('refuses lists, objects and booleans where one value goes, and bad formats', () => {
    expect(
      buildBlockSettings(
        'link',
        { name: ['a'], location_url: 'https://paypal.com@evil.example/' },
        null,
      ).problems,
    ).toEqual([
      { title: 'name must be a single value.', field: 'name' },
      {
        title:
          'location_url must not carry a user name or password (user:password@ before the host), which browsers show like part of the address.',
        field: 'location_url',
      },
    ]);
    expect(
      buildBlockSettings('email_collector', { thank_you_url: 'ftp://x', title: true }, null)
        .problems,
    ).toEqual([
      { title: 'title must be a single value.', field: 'title' },
      {
        title:
          'thank_you_url must be an http:// or https:// URL with a host, at most 2048 characters.',
        field: 'thank_you_url',
      },
    ]);
  });

  it('reads the lists of a collector and a calendar from forms and JSON', () => {
    const built = buildBlockSettings(
      'appointment_calendar',
      {
        notification_handlers_ids: { 0: '3', 1: 3, 2: ' 4 ' },
        days: ['FRI', ' mon'],
        duration_value: '45',
      },
      null,
    );
    expect(built).toEqual({
      settings: {
        ...initialBlockSettings('appointment_calendar'),
        notification_handlers_ids: [3, 4],
        days: ['mon', 'fri'],
        duration_value: 45,
      },
      problems: [],
    });
    expect(
      buildBlockSettings(
        'appointment_calendar',
        { notification_handlers_ids: [0], days: 'someday', max_days_ahead: 91 },
        null,
      ).problems,
    ).toEqual([
      {
        title: 'notification_handlers_ids must be at most 20 notification handler ids of yours.',
        field: 'notification_handlers_ids',
      },
      { title: 'days must list days among mon, tue, wed, thu, fri, sat, sun.', field: 'days' },
      { title: 'max_days_ahead must be a whole number from 1 to 90.', field: 'max_days_ahead' },
    ]);
  });

  it('checks the opening hours against the kept ones once every field is valid', () => {
    const current = initialBlockSettings('appointment_calendar');
    expect(buildBlockSettings('appointment_calendar', { end_time: '08:00' }, current)).toEqual({
      settings: { ...current, end_time: '08:00' },
      problems: [{ title: 'end_time must be after start_time.', field: 'end_time' }],
    });
    expect(buildBlockSettings('appointment_calendar', { days: '' }, current).problems).toEqual([
      { title: 'days must name at least one day.', field: 'days' },
    ]);
  });
});
