// What the features that handle a campaign run share about it, below them all: the states a run
// goes through (sending/ moves it along them, tracking/ publishes them) and the tables its detail
// is kept in (sending/ writes the delivery log, tracking/ the reports, retention/ drops both).
// Kept here so none of them reaches into another for it.

export type RunState = 'expanding' | 'sending' | 'completed' | 'failed';

/**
 * `delivery.<prefix>_YYYYMMDD` for a weekly piece of a run's detail (a date as 'YYYY-MM-DD'), or
 * the parent table for none (migrations/20261204190000_detail_pieces.sql).
 */
export function pieceTable(prefix: 'delivery_log' | 'tracking', piece: string | null): string {
  return piece === null ? `delivery.${prefix}` : `delivery.${prefix}_${piece.replaceAll('-', '')}`;
}
