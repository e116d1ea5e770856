import { createContext } from 'preact';
import { useContext, useState } from 'preact/hooks';
import { browserZone, isValidZone } from './time';
import type { Session } from './types';

export const SessionContext = createContext<Session | null>(null);

export interface ZonePreference {
  /** The IANA zone times are shown and entered in. */
  zone: string;
  setZone: (zone: string) => void;
}

const ZONE_KEY = 'console.timeZone';

function storedZone(): string {
  try {
    const z = localStorage.getItem(ZONE_KEY);
    if (z && isValidZone(z)) return z;
  } catch {
    // storage refused: the browser's zone
  }
  return browserZone();
}

/** The owner's time zone: the browser's unless they picked another (kept in this browser). */
export function useZonePreference(): ZonePreference {
  const [zone, setZoneState] = useState(storedZone);
  return {
    zone,
    setZone(z: string) {
      if (!isValidZone(z)) return;
      try {
        if (z === browserZone()) localStorage.removeItem(ZONE_KEY);
        else localStorage.setItem(ZONE_KEY, z);
      } catch {
        // not kept: this page only
      }
      setZoneState(z);
    },
  };
}

export const ZoneContext = createContext<ZonePreference>({ zone: 'UTC', setZone: () => {} });

export function useZone(): ZonePreference {
  return useContext(ZoneContext);
}

export function useSession(): Session | null {
  return useContext(SessionContext);
}
