"use client";

import { browserStorage } from "@/lib/storage/browser/browser-storage";
import { useCallback, useEffect, useState } from "react";
import {
  DEFAULT_SETTINGS,
  forgetKeys as forgetStoredKeys,
  loadKeys,
  loadSettings,
  saveKeys,
  saveSettings,
  type BrowserKeys,
  type KeyName,
  type ChatSettings,
} from "@/lib/model/chat-settings";

export interface UseChatSettingsResult {
  settings: ChatSettings;
  /** API keys typed in this browser (kept in localStorage under their own key). */
  keys: BrowserKeys;
  /** False until localStorage has been read (after mount). */
  loaded: boolean;
  update: (patch: Partial<ChatSettings>) => void;
  setKey: (name: KeyName, key: string) => void;
  forgetKeys: () => void;
}

/** localStorage when usable (lib/storage/browser/browser-storage.ts). */
const storage = browserStorage;

/** The chat settings and browser-typed keys, persisted in this browser's localStorage. */
export function useChatSettings(): UseChatSettingsResult {
  const [state, setState] = useState<{ settings: ChatSettings; keys: BrowserKeys; loaded: boolean }>({ settings: DEFAULT_SETTINGS, keys: {}, loaded: false });

  useEffect(() => {
    const store = storage();
    // localStorage exists only after mount; reading it during render would break hydration.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setState({ settings: store ? loadSettings(store) : DEFAULT_SETTINGS, keys: store ? loadKeys(store) : {}, loaded: true });
  }, []);

  const update = useCallback((patch: Partial<ChatSettings>) => {
    setState((current) => {
      const settings = { ...current.settings, ...patch };
      const store = storage();
      if (store) saveSettings(store, settings);
      return { ...current, settings };
    });
  }, []);

  const setKey = useCallback((name: KeyName, key: string) => {
    setState((current) => {
      const keys = { ...current.keys, [name]: key };
      const store = storage();
      if (store) saveKeys(store, keys);
      return { ...current, keys };
    });
  }, []);

  const forgetKeys = useCallback(() => {
    const store = storage();
    if (store) forgetStoredKeys(store);
    setState((current) => ({ ...current, keys: {} }));
  }, []);

  return { ...state, update, setKey, forgetKeys };
}
