// The words of the picker's list/map switch (in picker.js) and of its map (in picker-map.js), in the picker's three
// languages; texts.ts has the rest. Two catalogues so that each script carries only its own words.
import type { Language } from "./texts.ts";

export const SWITCH_TEXTS = {
  en: {
    views: "Show pickup points as",
    list: "List",
    map: "Map",
    loading: "Loading the map…",
    failed: "The map could not be loaded.",
  },
  fi: {
    views: "Näytä noutopisteet",
    list: "Listana",
    map: "Kartalla",
    loading: "Ladataan karttaa…",
    failed: "Karttaa ei voitu ladata.",
  },
  sv: {
    views: "Visa utlämningsställen som",
    list: "Lista",
    map: "Karta",
    loading: "Kartan laddas…",
    failed: "Kartan kunde inte laddas.",
  },
} as const satisfies Record<Language, Record<string, string>>;

export const MAP_TEXTS = {
  en: { label: "Map of the pickup points", zoomIn: "Zoom in", zoomOut: "Zoom out" },
  fi: { label: "Noutopisteet kartalla", zoomIn: "Lähennä", zoomOut: "Loitonna" },
  sv: { label: "Utlämningsställen på kartan", zoomIn: "Zooma in", zoomOut: "Zooma ut" },
} as const satisfies Record<Language, Record<string, string>>;
