// Reading barcodes with the device's camera, where the browser has its own detector (BarcodeDetector: Chrome on
// Android and ChromeOS, Safari on recent iOS). Elsewhere the button is not shown; the scan field (a handheld's
// keyboard-wedge scanner, or typing) always works.
import { useEffect, useRef, useState } from "react";
import type { StationWords } from "../words/station-words.ts";

interface Detected {
  rawValue: string;
}
interface Detector {
  detect(source: HTMLVideoElement): Promise<Detected[]>;
}
type DetectorClass = new (o: { formats: string[] }) => Detector;

const detectorClass = (): DetectorClass | undefined =>
  (window as unknown as { BarcodeDetector?: DetectorClass }).BarcodeDetector;

export const cameraAvailable = () => detectorClass() !== undefined && !!navigator.mediaDevices?.getUserMedia;

export function CameraScan({ s, onCode }: { s: StationWords; onCode: (code: string) => void }) {
  const [on, setOn] = useState(false);
  const [failed, setFailed] = useState(false);
  const video = useRef<HTMLVideoElement>(null);

  useEffect(() => {
    if (!on) return;
    const Detector = detectorClass();
    if (!Detector) return;
    let stream: MediaStream | undefined;
    let stopped = false;
    let last = "";
    const detector = new Detector({ formats: ["ean_13", "ean_8", "upc_a", "upc_e", "code_128", "itf"] });
    const look = async () => {
      if (stopped || !video.current) return;
      try {
        const [found] = await detector.detect(video.current);
        // The same code held in view is one scan, not one per frame.
        if (found && found.rawValue !== last) {
          last = found.rawValue;
          onCode(found.rawValue);
        }
      } catch {
        // A frame that could not be read: the next one may.
      }
      if (!stopped) setTimeout(() => void look(), 250);
    };
    navigator.mediaDevices
      .getUserMedia({ video: { facingMode: "environment" } })
      .then(async (s) => {
        stream = s;
        if (!video.current || stopped) return;
        video.current.srcObject = s;
        await video.current.play();
        void look();
      })
      .catch(() => {
        setFailed(true);
        setOn(false);
      });
    return () => {
      stopped = true;
      stream?.getTracks().forEach((t) => t.stop());
    };
  }, [on, onCode]);

  if (!cameraAvailable()) return null;
  return (
    <div className="camera">
      <button type="button" className="secondary" aria-pressed={on} onClick={() => setOn(!on)}>
        {on ? s.cameraOff : s.cameraOn}
      </button>
      {failed && <p className="problem">{s.cameraFailed}</p>}
      {on && <video ref={video} muted playsInline aria-label={s.cameraView} />}
    </div>
  );
}
