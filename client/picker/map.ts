// picker-map.js: the map view of the picker's pickup points (client/picker/map-switch.ts imports it the first time
// a shopper opens the map). Leaflet and its style sheet, bundled here and served by our server like picker.js; the
// tiles come from the operator's tile server (PICKER_MAP_TILE_URL). The style sheet goes into the map's box in the
// picker's shadow root, where the page's own styles do not reach. Each pickup point is a marker that the keyboard reaches in the
// list's order (nearest first), named by the point's name; Enter or Space, or a click, chooses it as the list does.
import {
  control,
  divIcon,
  latLngBounds,
  map as leafletMap,
  marker,
  tileLayer,
  type Control,
  type Map,
  type Marker,
} from "leaflet";
import type { CreateMap, MapPoint } from "./map-switch.ts";
import type { components } from "../../generated/api.ts";
import { MAP_TEXTS } from "./map-texts.ts";
import type { Language } from "./texts.ts";

type Point = components["schemas"]["PickupPointWithPrice"];

/** Leaflet's style sheet, minified, put in by the build (tools/build-picker.mjs). */
declare const LEAFLET_CSS: string;

const STYLE = `
.map { height: 22rem; max-height: 70vh; margin: .5em 0 0; border: 1px solid var(--logistics-border, #767676); border-radius: var(--logistics-radius, 4px); font: inherit; }
.map:focus-visible { outline: 3px solid var(--logistics-accent, #1f5fbf); outline-offset: 2px; }
.pin { cursor: pointer; border-radius: 4px; }
.pin > span { position: absolute; left: 5px; top: 5px; width: 22px; height: 22px; border-radius: 50% 50% 50% 0; transform: rotate(-45deg); background: var(--logistics-marker, #4a4a4a); border: 3px solid #fff; box-shadow: 0 1px 4px rgba(0, 0, 0, .5); }
.pin.chosen > span { background: var(--logistics-accent, #1f5fbf); transform: rotate(-45deg) scale(1.25); box-shadow: 0 0 0 2px var(--logistics-accent, #1f5fbf), 0 1px 6px rgba(0, 0, 0, .6); }
.pin:focus-visible { outline: 3px solid #000; outline-offset: 2px; }
.leaflet-tooltip { font: inherit; font-size: .9em; }
`;

/** A marker's icon: a 32 px box (a finger's target) holding a pin whose tip is the pickup point; `chosen` colours it. */
const PIN = divIcon({
  className: "pin",
  html: "<span></span>",
  iconSize: [32, 32],
  iconAnchor: [16, 32],
  tooltipAnchor: [0, -34],
});

const text = (s: string) => {
  const span = document.createElement("span");
  span.textContent = s;
  return span;
};

export const createMap: CreateMap = (host, settings) => {
  // Inside the map's own box: the picker redraws its shadow root's other children (a change of language does).
  const style = document.createElement("style");
  style.textContent = LEAFLET_CSS + STYLE;
  host.append(style);
  host.setAttribute("role", "region");
  const map: Map = leafletMap(host, { zoomControl: false, attributionControl: false });
  // The credit line is the operator's plain text: set as text, never as markup.
  const credit = control.attribution({ prefix: '<a href="https://leafletjs.com">Leaflet</a>' }).addTo(map);
  credit.getContainer()!.append(" | ", text(settings.attribution));
  tileLayer(settings.tiles, { maxZoom: 19 }).addTo(map);

  let shown = "";
  let language: Language | undefined;
  let zoom: Control.Zoom | undefined;
  const markers = new globalThis.Map<string, Marker>();

  /** Draws the points; only once the map is in the page, where Leaflet can measure its box. */
  const draw = (points: MapPoint[], chosen: string | undefined, lang: Language, choose: (p: Point) => void) => {
    if (!host.isConnected) return;
    if (lang !== language) {
      language = lang;
      const t = MAP_TEXTS[lang];
      host.setAttribute("aria-label", t.label);
      zoom?.remove();
      zoom = control.zoom({ zoomInTitle: t.zoomIn, zoomOutTitle: t.zoomOut, position: "topright" }).addTo(map);
    }
    // Put back in place by the picker's redraw: Leaflet measures its box again.
    map.invalidateSize({ pan: false });
    const ids = points.map((p) => p.point.id).join(" ");
    if (ids !== shown) {
      shown = ids;
      for (const m of markers.values()) m.remove();
      markers.clear();
      // The view first: Leaflet makes a marker's element only on a map that has one.
      const bounds = latLngBounds(points.map((p) => p.point.coordinates));
      if (!bounds.isValid()) return;
      map.fitBounds(bounds, { padding: [40, 40], maxZoom: 15 });
      // Nearest first, as in the list: the markers' order in the page is the keyboard's.
      for (const { point, label } of points) {
        const m = marker(point.coordinates, { icon: PIN, keyboard: true }).addTo(map);
        m.bindTooltip(text(label), { direction: "top" });
        const el = m.getElement()!;
        el.setAttribute("aria-label", point.name);
        const pick = () => {
          choose(point);
          // The picker drew itself anew around the map: the keyboard stays on the chosen marker.
          el.focus();
        };
        m.on("click", pick);
        el.addEventListener("keydown", (e) => {
          if (e.key !== "Enter" && e.key !== " ") return;
          e.preventDefault();
          pick();
        });
        markers.set(point.id, m);
      }
    }
    for (const [id, m] of markers) {
      const isChosen = id === chosen;
      const el = m.getElement()!;
      el.classList.toggle("chosen", isChosen);
      el.setAttribute("aria-pressed", String(isChosen));
      m.setZIndexOffset(isChosen ? 1000 : 0);
    }
  };

  return {
    // Called while the picker draws itself, before its new content is in the page: drawn right after.
    show: (...args) => queueMicrotask(() => draw(...args)),
  };
};
