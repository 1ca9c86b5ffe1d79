// Reads one sample of a Prometheus text exposition, e.g. sampleValue(text, 'db_pool_connections{state="idle"}').
export function sampleValue(text: string, sample: string): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(sample + " "));
  return line === undefined ? undefined : Number(line.slice(sample.length + 1));
}
