// Small building blocks: errors in the API's words, copy buttons, confirmation dialogs, labelled
// fields with their API messages. Real elements only (button, a, label, dialog), so keyboards and
// screen readers get what browsers give them.
import type { ComponentChildren } from 'preact';
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { messageOf } from '../lib/api';
import { graphemes } from '../lib/format';

export function ErrorBox({ error, title }: { error: unknown; title?: string }) {
  if (error === undefined || error === null) return null;
  return (
    <div class="alert alert-error" role="alert">
      {title ? <strong>{title}: </strong> : null}
      {typeof error === 'string' ? error : messageOf(error)}
    </div>
  );
}

export function Notice({ children }: { children: ComponentChildren }) {
  return (
    <div class="alert alert-ok" role="status">
      {children}
    </div>
  );
}

/** Where a viewer would find controls that change something: why there are none. */
export function ViewerNote() {
  return <p class="muted viewer-note">You are a viewer of this site: you can see everything, and change nothing.</p>;
}

export function Loading({ what = 'Loading' }: { what?: string }) {
  return (
    <p class="muted" role="status">
      {what}…
    </p>
  );
}

/** Puts `text` on the clipboard; where the Clipboard API is not allowed (plain http), selects and copies. */
async function copyText(text: string, fallbackFrom?: HTMLInputElement | HTMLTextAreaElement | null): Promise<boolean> {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // fall through
  }
  if (fallbackFrom) {
    fallbackFrom.focus();
    fallbackFrom.select();
    try {
      return document.execCommand('copy');
    } catch {
      return false;
    }
  }
  return false;
}

/** A button that copies `text`, and says so (politely, to screen readers too). */
export function CopyButton({ text, label, source, visible = 'Copy' }: { text: string; label: string; source?: () => HTMLInputElement | HTMLTextAreaElement | null; visible?: string }) {
  const [said, setSaid] = useState('');
  useEffect(() => {
    if (!said) return;
    const t = setTimeout(() => setSaid(''), 4000);
    return () => clearTimeout(t);
  }, [said]);
  return (
    <span class="copy">
      <button
        type="button"
        class="btn btn-small"
        aria-label={label}
        onClick={async () => setSaid((await copyText(text, source?.())) ? 'Copied' : 'Select the text and copy it by hand')}
      >
        {visible}
      </button>
      <span class="copy-status" role="status" aria-live="polite">
        {said}
      </span>
    </span>
  );
}

/** A read-only value with a copy button beside it. */
export function CopyField({ label, value, multiline = false, hint }: { label: string; value: string; multiline?: boolean; hint?: string }) {
  const id = useId();
  const ref = useRef<HTMLInputElement & HTMLTextAreaElement>(null);
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {hint ? (
        <p class="hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      <div class="copy-row">
        {multiline ? (
          <textarea id={id} ref={ref} readOnly rows={Math.min(6, value.split('\n').length + 1)} class="mono" aria-describedby={hint ? `${id}-hint` : undefined} value={value} />
        ) : (
          <input id={id} ref={ref} readOnly class="mono" aria-describedby={hint ? `${id}-hint` : undefined} value={value} />
        )}
        <CopyButton text={value} label={`Copy ${label}`} source={() => ref.current} />
      </div>
    </div>
  );
}

/**
 * A modal confirmation (<dialog>: focus kept inside, Esc cancels). `onConfirm` may fail: its
 * message is shown in the dialog, which stays open.
 */
export function ConfirmDialog(props: {
  open: boolean;
  title: string;
  children: ComponentChildren;
  confirmLabel: string;
  danger?: boolean;
  onConfirm: () => Promise<void> | void;
  onClose: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (props.open && !d.open) {
      setError(undefined);
      d.showModal();
    } else if (!props.open && d.open) d.close();
  }, [props.open]);
  return (
    <dialog ref={ref} class="dialog" aria-labelledby={titleId} onClose={() => props.onClose()}>
      <form
        method="dialog"
        onSubmit={async (e) => {
          e.preventDefault();
          setBusy(true);
          setError(undefined);
          try {
            await props.onConfirm();
            props.onClose();
          } catch (err) {
            setError(err);
          } finally {
            setBusy(false);
          }
        }}
      >
        <h2 id={titleId}>{props.title}</h2>
        <div class="dialog-body">{props.children}</div>
        <ErrorBox error={error} />
        <div class="actions">
          <button type="button" class="btn" onClick={() => props.onClose()}>
            Cancel
          </button>
          <button type="submit" class={props.danger ? 'btn btn-danger' : 'btn btn-primary'} disabled={busy}>
            {props.confirmLabel}
          </button>
        </div>
      </form>
    </dialog>
  );
}


/** A labelled input with its hint and the API's messages about it. */
export function TextField(
  props: {
    id?: string;
    type?: 'text' | 'email' | 'password' | 'url' | 'search' | 'time' | 'datetime-local' | 'number';
    placeholder?: string;
    inputMode?: 'text' | 'numeric' | 'decimal' | 'url' | 'email' | 'search';
    autoComplete?: string;
    maxLength?: number;
    label: string;
    value: string;
    onValue: (value: string) => void;
    hint?: ComponentChildren;
    errors?: string[];
    counter?: number;
  },
) {
  const { label, value, onValue, hint, errors, counter } = props;
  const auto = useId();
  const id = props.id ?? auto;
  const described = [hint ? `${id}-hint` : '', errors?.length ? `${id}-err` : '', counter ? `${id}-count` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div class={errors?.length ? 'field field-invalid' : 'field'}>
      <label for={id}>{label}</label>
      {hint ? (
        <p class="hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      <input
        id={id}
        // (Preact's types check attributes per input type; the union is one of those it allows.)
        type={(props.type ?? 'text') as 'text'}
        placeholder={props.placeholder}
        inputMode={props.inputMode}
        autoComplete={props.autoComplete}
        maxLength={props.maxLength}
        value={value}
        onInput={(e) => onValue((e.currentTarget as HTMLInputElement).value)}
        aria-invalid={errors?.length ? 'true' : undefined}
        aria-describedby={described}
      />
      {counter ? (
        <p class="counter" id={`${id}-count`}>
          {graphemes(value)} of {counter}
        </p>
      ) : null}
      <FieldErrors id={`${id}-err`} errors={errors} />
    </div>
  );
}

export function TextArea(props: {
  label: string;
  value: string;
  onValue: (value: string) => void;
  hint?: ComponentChildren;
  errors?: string[];
  counter?: number;
  rows?: number;
  id?: string;
}) {
  const auto = useId();
  const id = props.id ?? auto;
  const described = [props.hint ? `${id}-hint` : '', props.errors?.length ? `${id}-err` : '', props.counter ? `${id}-count` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div class={props.errors?.length ? 'field field-invalid' : 'field'}>
      <label for={id}>{props.label}</label>
      {props.hint ? (
        <p class="hint" id={`${id}-hint`}>
          {props.hint}
        </p>
      ) : null}
      <textarea
        id={id}
        rows={props.rows ?? 3}
        value={props.value}
        onInput={(e) => props.onValue((e.currentTarget as HTMLTextAreaElement).value)}
        aria-invalid={props.errors?.length ? 'true' : undefined}
        aria-describedby={described}
      />
      {props.counter ? (
        <p class="counter" id={`${id}-count`}>
          {graphemes(props.value)} of {props.counter}
        </p>
      ) : null}
      <FieldErrors id={`${id}-err`} errors={props.errors} />
    </div>
  );
}

export function FieldErrors({ id, errors }: { id?: string; errors?: string[] }) {
  if (!errors?.length) return null;
  return (
    <ul class="field-errors" id={id}>
      {errors.map((e) => (
        <li key={e}>{e}</li>
      ))}
    </ul>
  );
}

export function Stat({ label, value, hint }: { label: string; value: string; hint?: string }) {
  return (
    <div class="stat">
      <dt>{label}</dt>
      <dd>
        <span class="stat-value">{value}</span>
        {hint ? <span class="stat-hint">{hint}</span> : null}
      </dd>
    </div>
  );
}
