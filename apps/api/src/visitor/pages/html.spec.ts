import { markup, raw } from './html';

describe('markup', () => {
  it('escapes every interpolated value by default', () => {
    const hostile = `"><img src=x onerror=alert(1)></title><script>`;
    expect(markup`<p title="${hostile}">${hostile}</p>`.value).toBe(
      '<p title="&quot;&gt;&lt;img src=x onerror=alert(1)&gt;&lt;/title&gt;&lt;script&gt;">&quot;&gt;&lt;img src=x onerror=alert(1)&gt;&lt;/title&gt;&lt;script&gt;</p>',
    );
  });

  it('keeps nested templates and raw() as they are, joins arrays and skips empty values', () => {
    const items = ['a<b', markup`<b>${'c&d'}</b>`];
    expect(markup`${items}|${raw('<i>x</i>')}|${null}${undefined}${false}|${0}`.value).toBe(
      'a&lt;b<b>c&amp;d</b>|<i>x</i>||0',
    );
  });
});
