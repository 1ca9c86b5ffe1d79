// A test clock: the server reads "now" from it (startTestServer's `now`), the test sets it to the instant a case
// is about (a cut-off, a weekend, a holiday) and moves it on.
export class TestClock {
  private at: Date;
  constructor(iso: string) {
    this.at = new Date(iso);
  }
  /** Pass as startTestServer's `now`. */
  readonly now = (): Date => new Date(this.at.getTime());
  set(iso: string): void {
    this.at = new Date(iso);
  }
  advance(seconds: number): void {
    this.at = new Date(this.at.getTime() + seconds * 1000);
  }
}
