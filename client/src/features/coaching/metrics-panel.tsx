/**
 * Measured conversation metrics shown beside the Speaker Balance on the coaching card.
 * Owned by the coaching feature; the coaching card renders <MetricsPanel metrics={...} />.
 */
export function MetricsPanel(_props: { metrics: unknown }) {
  return null;
}
