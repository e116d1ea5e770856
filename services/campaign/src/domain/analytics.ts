// ctr and its as the spec defines them: percentages with two decimals, 0 on a zero base.

export interface Analytics {
  clicks: number;
  impressions: number;
  ctr: number;
  its: number;
  totalUsers: number;
}

function percent(part: number, base: number): number {
  if (base <= 0) return 0;
  // Scaled to hundredths of a percent in integers first, so 1.005 % rounds to 1.01, not 1.
  return Math.round((part * 10_000) / base) / 100;
}

export function computeAnalytics(counts: { clicks: number; impressions: number; totalUsers: number }): Analytics {
  return {
    clicks: counts.clicks,
    impressions: counts.impressions,
    ctr: percent(counts.clicks, counts.impressions),
    its: percent(counts.impressions, counts.totalUsers),
    totalUsers: counts.totalUsers,
  };
}
