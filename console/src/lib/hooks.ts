import { useCallback, useEffect, useRef, useState } from 'preact/hooks';

export interface Loaded<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  /** Loads again; `quiet` keeps the current data shown meanwhile (refreshes). */
  reload: (quiet?: boolean) => Promise<void>;
  setData: (data: T) => void;
}

/** Runs `load` when `deps` change; the answer of a superseded call is dropped. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): Loaded<T> {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  const [loading, setLoading] = useState(true);
  const seq = useRef(0);
  const loadRef = useRef(load);
  loadRef.current = load;
  const reload = useCallback(async (quiet = false) => {
    const mine = ++seq.current;
    if (!quiet) setLoading(true);
    try {
      const value = await loadRef.current();
      if (mine !== seq.current) return;
      setData(value);
      setError(undefined);
    } catch (err) {
      if (mine !== seq.current) return;
      setError(err);
    } finally {
      if (mine === seq.current) setLoading(false);
    }
  }, []);
  useEffect(() => {
    setData(undefined);
    void reload();
    return () => {
      seq.current++;
    };
  }, deps);
  return { data, error, loading, reload, setData };
}

/** `value`, once it has not changed for `ms`. */
export function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return settled;
}

/** Calls `tick` every `ms` while `active`, not while the tab is hidden. */
export function useInterval(tick: () => void, ms: number, active: boolean): void {
  const ref = useRef(tick);
  ref.current = tick;
  useEffect(() => {
    if (!active) return;
    const t = setInterval(() => {
      if (document.visibilityState !== 'hidden') ref.current();
    }, ms);
    return () => clearInterval(t);
  }, [ms, active]);
}

/** Sets the document title for the page shown. */
export function useTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · Console`;
  }, [title]);
}
