// How the notification will look: CSS mock-ups of Chrome on a desktop, Chrome on Android,
// Safari on macOS and Firefox. Approximations of each system's layout (what is shown, what is
// cut), not screenshots: systems truncate differently, so the longest texts are worth a look in
// each. Images are shown only from https:// URLs (as the API requires), without a referrer.
import { useState } from 'preact/hooks';
import { previewImage } from '../lib/format';

export interface PreviewContent {
  title: string;
  body: string;
  icon: string;
  image: string;
  callToAction: string;
  /** The texts of the buttons after callToAction's (the campaign's `actions`), two buttons in all. */
  buttons?: string[];
  /** The site's host (the notification's origin line). */
  host: string;
}

function Img({ src, class: cls, alt = '' }: { src: string | null; class: string; alt?: string }) {
  const [broken, setBroken] = useState<string | null>(null);
  if (!src || broken === src) return <span class={`${cls} img-placeholder`} aria-hidden="true" />;
  return <img class={cls} src={src} alt={alt} referrerpolicy="no-referrer" loading="lazy" onError={() => setBroken(src)} />;
}

/** The buttons shown: callToAction's first, then the campaign's own, two at most (as the service worker does). */
const buttonsOf = (c: PreviewContent) => [c.callToAction, ...(c.buttons ?? [])].filter((b) => b.trim() !== '').slice(0, 2);

const orTitle = (s: string) => s || 'Notification title';
const orBody = (s: string) => s || 'The text of the notification.';

function ChromeDesktop({ c }: { c: PreviewContent }) {
  return (
    <div class="pv pv-chrome">
      <div class="pv-chrome-head">
        <span class="pv-chrome-logo" aria-hidden="true" />
        <span>Google Chrome</span>
        <span class="pv-dot">·</span>
        <span class="pv-host">{c.host || 'your-site.example'}</span>
      </div>
      <div class="pv-chrome-main">
        <div class="pv-text">
          <div class="pv-title pv-clamp-1">{orTitle(c.title)}</div>
          <div class="pv-body pv-clamp-2">{orBody(c.body)}</div>
        </div>
        <Img src={previewImage(c.icon)} class="pv-icon" />
      </div>
      {previewImage(c.image) ? <Img src={previewImage(c.image)} class="pv-image" /> : null}
      {buttonsOf(c).map((b, i) => (
        <div class="pv-chrome-action" key={i}>
          {b}
        </div>
      ))}
    </div>
  );
}

function Android({ c }: { c: PreviewContent }) {
  return (
    <div class="pv pv-android">
      <div class="pv-android-head">
        <span class="pv-android-app" aria-hidden="true" />
        <span>Chrome</span>
        <span class="pv-dot">·</span>
        <span class="pv-host">{c.host || 'your-site.example'}</span>
        <span class="pv-dot">·</span>
        <span>now</span>
      </div>
      <div class="pv-android-main">
        <div class="pv-text">
          <div class="pv-title pv-clamp-1">{orTitle(c.title)}</div>
          <div class="pv-body pv-clamp-3">{orBody(c.body)}</div>
        </div>
        <Img src={previewImage(c.icon)} class="pv-icon pv-icon-round" />
      </div>
      {previewImage(c.image) ? <Img src={previewImage(c.image)} class="pv-image" /> : null}
      <div class="pv-android-actions">
        {buttonsOf(c).map((b, i) => (
          <span key={i}>{b.toUpperCase()}</span>
        ))}
        <span>SITE SETTINGS</span>
      </div>
    </div>
  );
}

function MacSafari({ c }: { c: PreviewContent }) {
  return (
    <div class="pv pv-mac">
      <span class="pv-mac-app" aria-hidden="true" />
      <div class="pv-text">
        <div class="pv-mac-top">
          <span class="pv-title pv-clamp-1">{orTitle(c.title)}</span>
          <span class="pv-mac-time">now</span>
        </div>
        <div class="pv-mac-host">{c.host || 'your-site.example'}</div>
        <div class="pv-body pv-clamp-2">{orBody(c.body)}</div>
      </div>
      <Img src={previewImage(c.icon)} class="pv-icon pv-icon-small" />
    </div>
  );
}

function Firefox({ c }: { c: PreviewContent }) {
  return (
    <div class="pv pv-firefox">
      <div class="pv-firefox-head">
        <span class="pv-firefox-logo" aria-hidden="true" />
        <span>Firefox</span>
      </div>
      <div class="pv-firefox-main">
        <Img src={previewImage(c.icon)} class="pv-icon" />
        <div class="pv-text">
          <div class="pv-title pv-clamp-1">{orTitle(c.title)}</div>
          <div class="pv-body pv-clamp-3">{orBody(c.body)}</div>
          <div class="pv-firefox-host">via {c.host || 'your-site.example'}</div>
        </div>
      </div>
      {buttonsOf(c).map((b, i) => (
        <div class="pv-firefox-action" key={i}>
          {b}
        </div>
      ))}
    </div>
  );
}

const STYLES = [
  { key: 'chrome', label: 'Chrome on a desktop', View: ChromeDesktop },
  { key: 'android', label: 'Chrome on Android', View: Android },
  { key: 'mac', label: 'Safari on macOS', View: MacSafari },
  { key: 'firefox', label: 'Firefox', View: Firefox },
] as const;

export function NotificationPreview({ content }: { content: PreviewContent }) {
  return (
    <div class="previews">
      {STYLES.map(({ key, label, View }) => (
        <figure key={key} class="preview" data-style={key}>
          <figcaption>{label}</figcaption>
          <View c={content} />
        </figure>
      ))}
    </div>
  );
}
