// uPlot, loaded only by pages that draw a chart (a chunk of its own). It draws on a canvas and
// styles through the CSS object model (no inline <style>, no innerHTML): it runs under the
// console's Content-Security-Policy as it is.
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { timeAxisLabels } from '../lib/time';

export interface ChartSeries {
  label: string;
  values: (number | null)[];
  color: string;
  /** A second y axis, on the right (e.g. totals beside daily counts). */
  right?: boolean;
  /** Drawn as bars instead of a line. */
  bars?: boolean;
  dash?: number[];
}

export interface ChartSpec {
  /** x values: Unix seconds (time charts) or 0…n-1 (category charts). */
  x: number[];
  series: ChartSeries[];
  /** Category names for a category chart (x is then their index). */
  categories?: string[];
  height: number;
  /** How the x axis shows time: `hour` for a campaign's first hours, `day` for daily counts. */
  timeUnit?: 'minute' | 'hour' | 'day';
  /** The zone the time axis is read in. */
  zone?: string;
  /** The x axis at least this wide (a sending campaign's first minutes), else the data's extent. */
  minXSpan?: number;
}

export interface MountedChart {
  setData(spec: ChartSpec): void;
  setWidth(width: number): void;
  destroy(): void;
}

function tzDate(zone: string | undefined) {
  return zone ? (ts: number) => uPlot.tzDate(new Date(ts * 1000), zone) : undefined;
}

function options(spec: ChartSpec, width: number, current: () => ChartSpec): uPlot.Options {
  const hasRight = spec.series.some((s) => s.right);
  const axisStroke = '#374151';
  const grid = { stroke: '#e5e7eb', width: 1 };
  const bars = uPlot.paths.bars ? uPlot.paths.bars({ size: [0.6, 60] }) : undefined;
  return {
    width,
    height: spec.height,
    tzDate: tzDate(spec.zone),
    scales: {
      x: spec.categories
        ? { time: false, range: [-0.5, spec.categories.length - 0.5] }
        : {
            time: true,
            range: (_u, min, max) => {
              const span = current().minXSpan ?? 0;
              return [min, Math.max(max, min + span)] as uPlot.Range.MinMax;
            },
          },
      y: { range: (_u, _min, max) => [0, Math.max(1, max * 1.1)] },
      ...(hasRight ? { r: { range: (_u: uPlot, _min: number, max: number) => [0, Math.max(1, max * 1.1)] as uPlot.Range.MinMax } } : {}),
    },
    axes: [
      {
        stroke: axisStroke,
        grid,
        ...(spec.categories
          ? { splits: () => spec.categories!.map((_, i) => i), values: (_u: uPlot, splits: number[]) => splits.map((i) => spec.categories![i] ?? '') }
          : // uPlot's own labels are 12-hour (2pm); the console's dates are 24-hour (lib/time.ts).
            { values: (_u: uPlot, splits: number[], _axis: number, _space: number, incr: number) => timeAxisLabels(splits, incr, spec.zone ?? 'UTC') }),
      },
      { stroke: axisStroke, grid, size: 56 },
      ...(hasRight ? [{ scale: 'r', side: 1, stroke: axisStroke, grid: { show: false }, size: 56 } as uPlot.Axis] : []),
    ],
    legend: { show: true, live: !spec.categories },
    cursor: { drag: { x: false, y: false }, points: { size: 6 } },
    series: [
      { label: spec.categories ? 'Browser' : 'Time' },
      ...spec.series.map(
        (s): uPlot.Series => ({
          label: s.label,
          stroke: s.color,
          width: 2,
          dash: s.dash,
          scale: s.right ? 'r' : 'y',
          fill: s.bars ? s.color : undefined,
          paths: s.bars ? bars : undefined,
          points: { show: s.bars ? false : undefined },
          spanGaps: false,
        }),
      ),
    ],
  };
}

function dataOf(spec: ChartSpec): uPlot.AlignedData {
  return [spec.x, ...spec.series.map((s) => s.values)] as uPlot.AlignedData;
}

export function mountChart(target: HTMLElement, spec: ChartSpec, width: number): MountedChart {
  let current = spec;
  const now = () => current;
  let plot = new uPlot(options(spec, width, now), dataOf(spec), target);
  return {
    setData(next) {
      const sameShape = next.series.length === current.series.length && JSON.stringify(next.categories) === JSON.stringify(current.categories) && next.zone === current.zone;
      current = next;
      if (sameShape) plot.setData(dataOf(next));
      else {
        const w = plot.width;
        plot.destroy();
        plot = new uPlot(options(next, w, now), dataOf(next), target);
      }
    },
    setWidth(w) {
      plot.setSize({ width: w, height: current.height });
    },
    destroy() {
      plot.destroy();
    },
  };
}
