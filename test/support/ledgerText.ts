// A ledger's text built from entries: each wrapped as the store would write it, chained in order.
import { encodeLedgerLine, type Stream } from "../../server/ledger/ledgerLine";

export type LedgerItem = { readonly stream: Stream; readonly entry: unknown };

export function ledgerText(items: readonly LedgerItem[]): string {
  let previous: string | null = null;
  let text = "";
  items.forEach((item, line) => {
    const encoded = encodeLedgerLine(line, previous, item.stream, item.entry);
    text += encoded.text;
    previous = encoded.lineSha256;
  });
  return text;
}
