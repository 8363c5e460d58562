package results

import (
	"cmp"
	"slices"
)

// CapacityWideSpread is the share of the median beyond which the range of
// repeated searches is wide: a search above or below the median by more
// than it. The Go apps' searches repeat within ±8% on this machine; past
// ±10% a single search could have been either end of the range.
const CapacityWideSpread = 0.10

// FoldCapacities joins the repeated searches of one (scenario, app) into
// the capacity the report quotes. One search is returned as it is. With
// several, the capacity is the median search, with every search in
// Searches:
//
//   - The median is taken over the searches whose outcome a full-length
//     run decided: those it confirmed, and those that met the SLO at no
//     rate (none). A rate that stands on short probes alone (unconfirmed)
//     is no capacity and does not pull the median up, unless most
//     searches were unconfirmed: the median is then that of the
//     unconfirmed searches, and itself unconfirmed.
//   - With an even number of those, it is the lower of the middle two: a
//     capacity is a rate a full-length run held, never the mean of two.
//   - It is that search's fields entire (rate, confirmation, probes, stop
//     reason): one real search, not a blend.
//
// Searches that did not run (failed, skipped) are left out; when none
// ran, the first search is returned. Whether the median is a lower bound
// is MachineBound's to say.
func FoldCapacities(searches []Capacity) Capacity {
	switch len(searches) {
	case 0:
		return Capacity{}
	case 1:
		return searches[0]
	}
	pool := counted(searches)
	if len(pool) == 0 {
		out := searches[0]
		out.Searches = slices.Clone(searches)
		return out
	}
	slices.SortStableFunc(pool, func(a, b Capacity) int { return cmp.Compare(a.Rate, b.Rate) })
	out := pool[(len(pool)-1)/2]
	out.Searches = slices.Clone(searches)
	return out
}

// counted are the searches of a fold the median is taken over (see
// FoldCapacities): the decided ones, or the unconfirmed ones when they are
// the majority of those that ran.
func counted(searches []Capacity) []Capacity {
	var decided, unconfirmed []Capacity
	for _, s := range searches {
		switch {
		case !s.ran():
		case s.Unconfirmed():
			unconfirmed = append(unconfirmed, s)
		default:
			decided = append(decided, s)
		}
	}
	if 2*len(unconfirmed) > len(decided)+len(unconfirmed) {
		return unconfirmed
	}
	return decided
}

// ran reports whether the search ran to an outcome: a rate, the cap, or
// none.
func (c *Capacity) ran() bool {
	switch c.Status {
	case CapacityFound, CapacityCapped, CapacityNone:
		return true
	}
	return false
}

// Unconfirmed reports whether c's rate stands on its short probes alone:
// the search found a rate, or reached the cap, but no full-length run
// held the SLO at it or below it (or none was run). Such a rate is not a
// capacity a server can be sized with: a tail that comes and goes can
// pass a 5 s probe and fail 15 s.
func (c *Capacity) Unconfirmed() bool {
	return (c.Status == CapacityFound || c.Status == CapacityCapped) && !c.Held
}

// Each is every search behind c: its Searches when it folds several, c
// alone otherwise.
func (c *Capacity) Each() []*Capacity {
	if len(c.Searches) == 0 {
		return []*Capacity{c}
	}
	out := make([]*Capacity, len(c.Searches))
	for i := range c.Searches {
		out[i] = &c.Searches[i]
	}
	return out
}

// Repeated reports whether c folds several searches.
func (c *Capacity) Repeated() bool { return len(c.Searches) > 1 }

// Range is the lowest and highest rate of the searches that ran to an
// outcome (a search that met the SLO at no rate counts as 0), and how
// many they were; zeros when none did.
func (c *Capacity) Range() (lo, hi float64, n int) {
	for _, s := range c.Each() {
		if !s.ran() {
			continue
		}
		if n == 0 || s.Rate < lo {
			lo = s.Rate
		}
		if n == 0 || s.Rate > hi {
			hi = s.Rate
		}
		n++
	}
	return lo, hi, n
}

// WideSpread reports whether repeated searches of c moved by more than
// CapacityWideSpread of its median, up or down.
func (c *Capacity) WideSpread() bool {
	lo, hi, n := c.Range()
	if n < 2 || c.Rate <= 0 {
		return n >= 2 && hi > 0
	}
	return hi > (1+CapacityWideSpread)*c.Rate || lo < (1-CapacityWideSpread)*c.Rate
}

// CountedRates are the rates the median of c was taken over, in the
// order the searches ran: the figures a comparison of repeated capacities
// tests. A single search's rate alone.
func (c *Capacity) CountedRates() []float64 {
	if len(c.Searches) == 0 {
		return []float64{c.Rate}
	}
	var rates []float64
	for _, s := range counted(c.Searches) {
		rates = append(rates, s.Rate)
	}
	return rates
}
