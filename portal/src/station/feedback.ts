// A scan is heard and felt as well as seen, where the device allows: a short high tone and a tap for a count, a
// low double tone and a longer buzz for a question. Both quietly do nothing where the browser has neither.
const MS_PER_SECOND = 1000;
let audio: AudioContext | undefined;

function tone(freq: number, at: number, ms: number): void {
  if (!audio) return;
  const osc = audio.createOscillator();
  const gain = audio.createGain();
  osc.frequency.value = freq;
  gain.gain.value = 0.15;
  osc.connect(gain).connect(audio.destination);
  osc.start(audio.currentTime + at);
  osc.stop(audio.currentTime + at + ms / MS_PER_SECOND);
}

export function feedback(kind: "ok" | "ask"): void {
  try {
    audio ??= typeof AudioContext === "function" ? new AudioContext() : undefined;
    if (kind === "ok") tone(1_320, 0, 90);
    else {
      tone(440, 0, 140);
      tone(330, 0.18, 180);
    }
  } catch {
    // No sound here (no audio device, or the browser wants a tap first): the screen says it.
  }
  if (typeof navigator.vibrate === "function") navigator.vibrate(kind === "ok" ? 40 : [120, 60, 120]);
}
