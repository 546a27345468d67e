import {
  BIOLINK_UPLOADS_PATH,
  BiolinkBlockEntity,
  BiolinkPageSettings,
  defaultBiolinkSettings,
  LinkEntity,
  MAX_BLOCKS_PER_PAGE,
  parseLinkSettings,
} from '@app/database';
import { SOCIAL_NETWORKS, SOCIAL_PROFILE_URL } from '@app/signatures';
import type { Slot, SlotWindow } from './appointment-slots';
import { markup, type MarkupValue, raw, SafeHtml } from './html';

/** A block as the page shows it: enabled, in page order, its settings parsed once per load. */
export interface VisitorBlock {
  id: number;
  type: string;
  settings: Record<string, unknown>;
  /** image blocks: the picture's address. */
  imageUrl: string | null;
  /** When the block was last edited (or created): part of what its cached slots are keyed by. */
  updatedMs: number;
}

/** A bio page compiled for visitors, once per cache load. */
export interface VisitorBio {
  ownerId: number;
  projectId: number | null;
  name: string;
  settings: BiolinkPageSettings;
  avatarUrl: string | null;
  blocks: VisitorBlock[];
  /** Pages with an appointment block show live slots: they are rendered per request. */
  hasAppointments: boolean;
  /**
   * The page as last rendered without form state, encoded with its headers (what a view sends),
   * and until when it is reused (its form tokens last longer).
   */
  rendered: { body: Buffer; headers: string[]; freshUntil: number } | null;
}

export function compileBio(
  link: LinkEntity,
  blocks: readonly BiolinkBlockEntity[],
  appUrl: string,
): VisitorBio {
  const stored = parseLinkSettings(link.settings);
  const settings = stored.biolink ?? defaultBiolinkSettings();
  const upload = (name: unknown): string | null =>
    typeof name === 'string' && /^[0-9a-f]{40}\.png$/.test(name)
      ? `${appUrl}/${BIOLINK_UPLOADS_PATH}/${name}`
      : null;
  // Pages made before the cap (or by two creates at once) show their first blocks only.
  const visible = blocks
    .filter((b) => b.is_enabled && b.user_id === link.user_id)
    .slice(0, MAX_BLOCKS_PER_PAGE)
    .map((b) => {
      const parsed = JSON.parse(b.settings) as Record<string, unknown>;
      return {
        id: b.id,
        type: b.type,
        settings: parsed,
        imageUrl: upload(parsed.image),
        updatedMs: (b.last_datetime ?? b.datetime).getTime(),
      };
    });
  return {
    ownerId: link.user_id,
    projectId: link.project_id,
    name: stored.name ?? '',
    settings,
    avatarUrl: upload(settings.avatar),
    blocks: visible,
    hasAppointments: visible.some((b) => b.type === 'appointment_calendar'),
    rendered: null,
  };
}

/** What one form of the page shows after a post: the values typed, the errors, or the thanks. */
export interface FormState {
  blockId: number;
  values: Record<string, string>;
  errors: Record<string, string>;
  /** A message above the form (a taken slot, too many posts). */
  notice: string | null;
  thanks: string | null;
}

export interface RenderOptions {
  /** `/{alias}`: where the page's forms and block links go. */
  base: string;
  /** A signed, expiring form token for a block. */
  token: (blockId: number) => string;
  /** Free slots of each appointment block, as much as the page shows. */
  slots: ReadonlyMap<number, SlotWindow>;
  /** The appointment block showing later slots than its first ones, if any. */
  laterOf: number | null;
  state: FormState | null;
}

const FONTS: Record<string, string> = {
  system: 'system-ui,-apple-system,"Segoe UI",Roboto,sans-serif',
  serif: 'Georgia,"Times New Roman",serif',
  monospace: 'ui-monospace,Menlo,Consolas,monospace',
  rounded: 'ui-rounded,"SF Pro Rounded","Nunito",system-ui,sans-serif',
};

const HEX = /^#[0-9a-f]{6}$/;
/** A stored colour, checked again before it reaches CSS. */
function color(value: string | null, fallback: string): string {
  return value !== null && HEX.test(value) ? value : fallback;
}

/** Mobile first: one column, full-width buttons, large touch targets; no script. */
function style(s: BiolinkPageSettings): SafeHtml {
  const bg = color(s.background_color, '#f4f4f5');
  const bg2 = s.background_color_two === null ? null : color(s.background_color_two, bg);
  const background = bg2 === null ? bg : `linear-gradient(180deg,${bg},${bg2})`;
  const text = color(s.text_color, '#18181b');
  const button = color(s.button_color, '#18181b');
  const buttonText = color(s.button_text_color, '#ffffff');
  return raw(`*{box-sizing:border-box}
html{background:${bg}}
body{margin:0;min-height:100vh;background:${background};color:${text};font-family:${FONTS[s.font] ?? FONTS.system};line-height:1.5}
main{max-width:36rem;margin:0 auto;padding:2rem 1rem 3rem;display:flex;flex-direction:column;gap:1rem;overflow-wrap:anywhere}
header{text-align:center}
.avatar{width:6rem;height:6rem;border-radius:50%;object-fit:cover;display:block;margin:0 auto .75rem}
h1{font-size:1.5rem;margin:0 0 .25rem}
h2,h3{margin:.5rem 0 0;text-align:center}
p{margin:0}
.center{text-align:center}
.button,button{display:block;width:100%;min-height:3rem;padding:.75rem 1rem;border:0;border-radius:.75rem;background:${button};color:${buttonText};font-weight:600;font-size:1rem;line-height:1.4;font-family:inherit;text-align:center;text-decoration:none;cursor:pointer}
.button:focus-visible,button:focus-visible,input:focus-visible,textarea:focus-visible{outline:3px solid ${text};outline-offset:2px}
figure{margin:0}
figure img{display:block;width:100%;height:auto;border-radius:.75rem}
.socials{display:flex;flex-wrap:wrap;justify-content:center;gap:.5rem;list-style:none;padding:0;margin:0}
.socials a{color:${text};padding:.5rem .75rem;border:1px solid currentColor;border-radius:2rem;text-decoration:none;display:inline-block;min-height:2.75rem}
form,.thanks{background:rgba(255,255,255,.92);color:#18181b;border-radius:.75rem;padding:1rem;display:flex;flex-direction:column;gap:.75rem}
form h2{margin:0;text-align:left;font-size:1.15rem}
label{display:block;font-weight:600;margin-bottom:.25rem}
input[type=text],input[type=email],input[type=tel],textarea{width:100%;padding:.7rem;border:1px solid #71717a;border-radius:.5rem;font:inherit;font-size:1rem;background:#fff;color:#18181b}
textarea{min-height:6rem}
fieldset{border:1px solid #a1a1aa;border-radius:.5rem;padding:.5rem .75rem;margin:0}
legend{font-weight:600;padding:0 .25rem}
.slots{display:flex;flex-wrap:wrap;gap:.5rem}
.slots label{font-weight:400;display:inline-flex;align-items:center;gap:.35rem;padding:.4rem .6rem;border:1px solid #a1a1aa;border-radius:.5rem;min-height:2.75rem}
.consent{display:flex;gap:.5rem;align-items:flex-start;font-weight:400}
.consent input{width:1.25rem;height:1.25rem;margin-top:.15rem}
.consent a{color:#1d4ed8}
.error{color:#b42318;font-weight:600;margin:.25rem 0 0}
.notice{color:#b42318;font-weight:600}
.hp{position:absolute;left:-10000px;width:1px;height:1px;overflow:hidden}`);
}

function field(
  block: VisitorBlock,
  state: FormState | null,
  name: string,
  label: string,
  kind: 'text' | 'email' | 'tel' | 'textarea',
  required: boolean,
  autocomplete: string,
): SafeHtml {
  const mine = state !== null && state.blockId === block.id;
  const value = mine ? (state.values[name] ?? '') : '';
  const error = mine ? state.errors[name] : undefined;
  const id = `b${block.id}-${name}`;
  const placeholder = block.settings[`${name}_placeholder`];
  const describedBy = error ? markup` aria-invalid="true" aria-describedby="${id}-error"` : null;
  const input =
    kind === 'textarea'
      ? markup`<textarea id="${id}" name="${name}" maxlength="2000"${required ? raw(' required') : null}${describedBy} placeholder="${typeof placeholder === 'string' ? placeholder : ''}">${value}</textarea>`
      : markup`<input type="${kind}" id="${id}" name="${name}" value="${value}" maxlength="${kind === 'email' ? 320 : 128}" autocomplete="${autocomplete}"${required ? raw(' required') : null}${describedBy} placeholder="${typeof placeholder === 'string' ? placeholder : ''}">`;
  return markup`<div><label for="${id}">${label}${required ? '' : ' (optional)'}</label>${input}${error ? markup`<p class="error" id="${id}-error">${error}</p>` : null}</div>`;
}

/** Which fields each collector asks for, and which of them are required. */
export const COLLECTOR_FIELDS: Record<
  string,
  Array<{
    name: string;
    label: string;
    kind: 'text' | 'email' | 'tel' | 'textarea';
    required: boolean;
    autocomplete: string;
  }>
> = {
  email_collector: [
    { name: 'name', label: 'Name', kind: 'text', required: false, autocomplete: 'name' },
    { name: 'email', label: 'Email', kind: 'email', required: true, autocomplete: 'email' },
  ],
  phone_collector: [
    { name: 'name', label: 'Name', kind: 'text', required: false, autocomplete: 'name' },
    { name: 'phone', label: 'Phone', kind: 'tel', required: true, autocomplete: 'tel' },
  ],
  contact_collector: [
    { name: 'name', label: 'Name', kind: 'text', required: true, autocomplete: 'name' },
    { name: 'email', label: 'Email', kind: 'email', required: true, autocomplete: 'email' },
    { name: 'phone', label: 'Phone', kind: 'tel', required: false, autocomplete: 'tel' },
    { name: 'message', label: 'Message', kind: 'textarea', required: true, autocomplete: 'off' },
  ],
  appointment_calendar: [
    { name: 'name', label: 'Name', kind: 'text', required: true, autocomplete: 'name' },
    { name: 'email', label: 'Email', kind: 'email', required: true, autocomplete: 'email' },
    { name: 'phone', label: 'Phone', kind: 'tel', required: false, autocomplete: 'tel' },
    { name: 'message', label: 'Message', kind: 'textarea', required: false, autocomplete: 'off' },
  ],
};

function text(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

/** A day's heading ("Monday 23 November"): one formatter, built once (toLocaleDateString builds one a call). */
const DAY_LABEL = new Intl.DateTimeFormat('en-GB', {
  weekday: 'long',
  day: 'numeric',
  month: 'long',
  timeZone: 'UTC',
});

/** Links to the next slots and back to the first ones (the page shows a window of them). */
function slotPaging(
  block: VisitorBlock,
  shown: SlotWindow | undefined,
  o: RenderOptions,
): MarkupValue {
  const id = String(block.id);
  const later =
    shown !== undefined && shown.next !== null
      ? markup`<a href="${o.base}/b/${id}?slots_from=${String(shown.next)}">Later times</a>`
      : null;
  const first =
    o.laterOf === block.id ? markup`<a href="${o.base}#b${id}">First free times</a>` : null;
  return later === null && first === null
    ? null
    : markup`<p>${first}${first !== null && later !== null ? ' · ' : ''}${later}</p>`;
}

function slotPicker(block: VisitorBlock, o: RenderOptions): SafeHtml {
  const shown = o.slots.get(block.id);
  const slots = shown?.slots ?? [];
  const mine = o.state !== null && o.state.blockId === block.id ? o.state : null;
  const chosen = mine?.values.slot ?? '';
  const error = mine?.errors.slot;
  if (slots.length === 0) {
    return markup`<div><p id="b${block.id}-slot-error" class="${error ? 'error' : ''}">${error ?? 'No free time in the coming days.'}</p>${slotPaging(block, shown, o)}</div>`;
  }
  const days = new Map<string, Slot[]>();
  for (const slot of slots) {
    const list = days.get(slot.localDate) ?? [];
    list.push(slot);
    days.set(slot.localDate, list);
  }
  const zone = text(block.settings.timezone) ?? 'UTC';
  const groups: MarkupValue[] = [];
  for (const [date, list] of days) {
    const label = DAY_LABEL.format(new Date(`${date}T12:00:00Z`));
    groups.push(
      markup`<fieldset><legend>${label}</legend><div class="slots">${list.map(
        (s) =>
          markup`<label><input type="radio" name="slot" value="${String(s.startMs)}" required${String(s.startMs) === chosen ? raw(' checked') : null}> ${s.localStart}–${s.localEnd}</label>`,
      )}</div></fieldset>`,
    );
  }
  return markup`<div><p>Times are in ${zone}.</p>${groups}${slotPaging(block, shown, o)}${error ? markup`<p class="error" id="b${block.id}-slot-error">${error}</p>` : null}</div>`;
}

function collector(block: VisitorBlock, o: RenderOptions): SafeHtml {
  const s = block.settings;
  const mine = o.state !== null && o.state.blockId === block.id ? o.state : null;
  if (mine?.thanks) {
    return markup`<div class="thanks" id="b${block.id}" role="status"><p>${mine.thanks}</p></div>`;
  }
  const title = text(s.title);
  const agreement = text(s.agreement_text);
  const agreementUrl = text(s.agreement_url);
  const consentError = mine?.errors.agreement;
  const fields = COLLECTOR_FIELDS[block.type].map((f) =>
    field(block, mine, f.name, f.label, f.kind, f.required, f.autocomplete),
  );
  return markup`<form method="post" action="${o.base}/b/${String(block.id)}#b${String(block.id)}" id="b${block.id}"${title ? markup` aria-labelledby="b${block.id}-title"` : markup` aria-label="${text(s.name) ?? 'Form'}"`}>
${title ? markup`<h2 id="b${block.id}-title">${title}</h2>` : null}
${text(s.description) ? markup`<p>${text(s.description)}</p>` : null}
${mine?.notice ? markup`<p class="notice" role="alert">${mine.notice}</p>` : null}
<input type="hidden" name="token" value="${o.token(block.id)}">
<div class="hp" aria-hidden="true"><label for="b${block.id}-website">Leave this empty</label><input type="text" id="b${block.id}-website" name="website" tabindex="-1" autocomplete="off"></div>
${block.type === 'appointment_calendar' ? slotPicker(block, o) : null}
${fields}
${
  agreement
    ? markup`<div><label class="consent"><input type="checkbox" name="agreement" value="1" required${mine?.values.agreement === '1' ? raw(' checked') : null}${consentError ? markup` aria-invalid="true" aria-describedby="b${block.id}-agreement-error"` : null}> <span>${agreementUrl ? markup`<a href="${agreementUrl}" rel="noopener noreferrer" target="_blank">${agreement}</a>` : agreement}</span></label>${consentError ? markup`<p class="error" id="b${block.id}-agreement-error">${consentError}</p>` : null}</div>`
    : null
}
<button type="submit">${text(s.name) ?? 'Send'}</button>
</form>`;
}

function blockHtml(block: VisitorBlock, o: RenderOptions): MarkupValue {
  const s = block.settings;
  switch (block.type) {
    case 'link':
      return markup`<a class="button" href="${o.base}/b/${String(block.id)}" rel="noopener">${text(s.name) ?? ''}</a>`;
    case 'heading': {
      const level = s.heading_type === 'h1' || s.heading_type === 'h3' ? s.heading_type : 'h2';
      // The page title is the one h1; a block's "h1" is its largest heading below it.
      const tag = level === 'h3' ? 'h3' : 'h2';
      return markup`${raw(`<${tag}>`)}${text(s.text) ?? ''}${raw(`</${tag}>`)}`;
    }
    case 'paragraph':
      return markup`<p class="center">${text(s.text) ?? ''}</p>`;
    case 'image': {
      if (block.imageUrl === null) return null;
      const img = markup`<img src="${block.imageUrl}" alt="${text(s.image_alt) ?? ''}" loading="lazy">`;
      const href = text(s.location_url);
      return markup`<figure>${href ? markup`<a href="${href}" rel="noopener">${img}</a>` : img}</figure>`;
    }
    case 'socials': {
      const items = SOCIAL_NETWORKS.filter((n) => text(s[n]) !== null).map(
        (n) =>
          markup`<li><a href="${SOCIAL_PROFILE_URL[n](encodeURIComponent(String(s[n])))}" rel="noopener me">${n}</a></li>`,
      );
      return items.length === 0
        ? null
        : markup`<ul class="socials" aria-label="Social profiles">${items}</ul>`;
    }
    case 'email_collector':
    case 'phone_collector':
    case 'contact_collector':
    case 'appointment_calendar':
      return collector(block, o);
    default:
      return null;
  }
}

/** The whole page. Every value from the owner or a visitor goes through `markup`'s escaping. */
export function renderBioPage(bio: VisitorBio, o: RenderOptions): string {
  const s = bio.settings;
  const title = s.seo_title ?? s.title ?? (bio.name || 'Links');
  return markup`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${s.seo_noindex ? raw('<meta name="robots" content="noindex">') : null}
<title>${title}</title>
${s.seo_description ? markup`<meta name="description" content="${s.seo_description}">` : null}
<style>${style(s)}</style>
</head>
<body>
<main>
<header>
${bio.avatarUrl ? markup`<img class="avatar" src="${bio.avatarUrl}" alt="">` : null}
<h1>${s.title ?? (bio.name || 'Links')}</h1>
${s.description ? markup`<p>${s.description}</p>` : null}
</header>
${bio.blocks.map(
  (b) => markup`${blockHtml(b, o)}
`,
)}
</main>
</body>
</html>
`.value;
}
