// Unsaved edits: the browser asks before the page is closed or reloaded, and the portal before it moves to
// another view (a hash change), so that nobody loses a pricing draft by a stray click.
import { useEffect } from "react";

export const LEAVE_QUESTION = "You have unsaved changes. Leave this page and lose them?";

export function useLeaveGuard(dirty: boolean): void {
  useEffect(() => {
    if (!dirty) return;
    const beforeUnload = (e: BeforeUnloadEvent) => e.preventDefault();
    let here = window.location.hash;
    const onHash = (e: Event) => {
      if (window.location.hash === here) return;
      if (window.confirm(LEAVE_QUESTION)) {
        here = window.location.hash;
        return;
      }
      // Back to where the edits are: the address changes back, the view never left.
      e.stopImmediatePropagation();
      window.history.replaceState(null, "", here);
    };
    window.addEventListener("beforeunload", beforeUnload);
    // Capture: before the router hears of the change. A link or the Back button fires popstate first and hashchange
    // a task later, and any render in between reads the new address and leaves the view (taking this guard with
    // it): ask at popstate; hashchange still covers a change made with replaceState (navigate(..., {replace})).
    window.addEventListener("popstate", onHash, true);
    window.addEventListener("hashchange", onHash, true);
    return () => {
      window.removeEventListener("beforeunload", beforeUnload);
      window.removeEventListener("popstate", onHash, true);
      window.removeEventListener("hashchange", onHash, true);
    };
  }, [dirty]);
}
