/** Text matching over chain data (token names and tickers, handles, collection names). */

/** Compatibility-normalised (NFKC: full-width ＩＡＧ is IAG) and lower case: how names are matched case-blind. */
export const foldText = (s: string): string => s.normalize('NFKC').toLowerCase();
