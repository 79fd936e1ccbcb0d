import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { Chart } from './progress-data';

/**
 * One small line chart over time. The drawing is for the eye only (hidden from screen readers);
 * the same numbers are in the table beside it, which a tap opens.
 */
function SmallChart({ chart }: { chart: Chart }) {
  const id = `chart-${chart.key}`;
  return (
    <figure
      className="rounded-lg border border-slate-200 p-3"
      aria-labelledby={`${id}-title`}
      data-testid={id}
    >
      <figcaption id={`${id}-title`} className="text-sm font-semibold text-slate-800">
        {chart.title}
      </figcaption>
      {chart.points.length === 0 ? (
        <p className="py-6 text-sm text-slate-600">{chart.empty}</p>
      ) : (
        <>
          <div className="h-36 w-full" aria-hidden="true">
            <ResponsiveContainer width="100%" height="100%">
              <LineChart
                data={chart.points}
                margin={{ top: 8, right: 8, bottom: 0, left: -24 }}
                accessibilityLayer={false}
              >
                <CartesianGrid stroke="#e2e8f0" strokeDasharray="3 3" />
                <XAxis dataKey="label" tick={{ fontSize: 11, fill: '#475569' }} interval="preserveStartEnd" />
                <YAxis
                  domain={[0, chart.max ?? 'auto']}
                  allowDecimals={false}
                  tick={{ fontSize: 11, fill: '#475569' }}
                />
                <Tooltip />
                <Line
                  type="monotone"
                  dataKey="value"
                  name={chart.unit}
                  stroke="#2563eb"
                  strokeWidth={2}
                  dot={{ r: 3 }}
                  isAnimationActive={false}
                />
              </LineChart>
            </ResponsiveContainer>
          </div>
          <details className="mt-1 text-sm">
            <summary className="inline-flex min-h-11 cursor-pointer items-center text-brand-700">
              Show as a table
            </summary>
            <table className="mt-1 w-full text-left">
              <caption className="sr-only">{chart.title}</caption>
              <thead>
                <tr className="border-b border-slate-200 text-slate-600">
                  <th scope="col" className="py-1 font-medium">
                    Date
                  </th>
                  <th scope="col" className="py-1 font-medium">
                    {chart.unit}
                  </th>
                </tr>
              </thead>
              <tbody>
                {chart.points.map((p) => (
                  <tr key={p.id} className="border-b border-slate-100">
                    <td className="py-1">{p.label}</td>
                    <td className="py-1">{p.value}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </details>
        </>
      )}
    </figure>
  );
}

export function ChartGrid({ charts }: { charts: Chart[] }) {
  return (
    <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
      {charts.map((c) => (
        <SmallChart key={c.key} chart={c} />
      ))}
    </div>
  );
}
