// A uPlot chart that follows its container's width, with the same numbers as a table for
// keyboard and screen-reader users (the canvas itself is hidden from assistive technology).
import type { ComponentChildren } from 'preact';
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import type { ChartSpec, MountedChart } from './uplot-chart';

type Loader = typeof import('./uplot-chart');
let loading: Promise<Loader> | undefined;
const loadUplot = () => (loading ??= import('./uplot-chart'));

export function Chart(props: {
  title: string;
  spec: ChartSpec;
  /** The table's first column header and cells. */
  rowLabel: string;
  rows: { label: string; values: (number | string)[] }[];
  empty?: ComponentChildren;
}) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<MountedChart | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const titleId = useId();
  const specRef = useRef(props.spec);
  specRef.current = props.spec;
  const hasData = props.spec.x.length > 0;

  useEffect(() => {
    if (!hasData) return;
    let gone = false;
    let observer: ResizeObserver | undefined;
    loadUplot().then(
      ({ mountChart }) => {
        if (gone || !box.current) return;
        const width = Math.max(240, Math.floor(box.current.clientWidth));
        chart.current = mountChart(box.current, specRef.current, width);
        observer = new ResizeObserver(() => {
          if (box.current && chart.current) chart.current.setWidth(Math.max(240, Math.floor(box.current.clientWidth)));
        });
        observer.observe(box.current);
      },
      () => setFailed('The chart could not be loaded; the table below has its numbers.'),
    );
    return () => {
      gone = true;
      observer?.disconnect();
      chart.current?.destroy();
      chart.current = null;
    };
  }, [hasData]);

  useEffect(() => {
    chart.current?.setData(props.spec);
  }, [props.spec]);

  return (
    <figure class="chart" aria-labelledby={titleId}>
      <figcaption id={titleId}>{props.title}</figcaption>
      {hasData ? <div class="chart-canvas" ref={box} aria-hidden="true" /> : <p class="muted">{props.empty ?? 'No data yet.'}</p>}
      {failed ? <p class="muted">{failed}</p> : null}
      {hasData ? (
        <details class="chart-table">
          <summary>Show the numbers</summary>
          <div class="table-scroll" role="region" aria-label={`${props.title}: the numbers`} tabIndex={0}>
            <table>
              <thead>
                <tr>
                  <th scope="col">{props.rowLabel}</th>
                  {props.spec.series.map((s) => (
                    <th scope="col" key={s.label}>
                      {s.label}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {props.rows.map((r) => (
                  <tr key={r.label}>
                    <th scope="row">{r.label}</th>
                    {r.values.map((v, i) => (
                      <td key={i} class="num">
                        {v}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </details>
      ) : null}
    </figure>
  );
}
