package marketdata

// Listener is told of what a fed service applies, as it applies it: every
// book snapshot with its version, and every batch of new trades. The
// Binance-compatible streams build their events from it (diff depth
// needs every version, which the pushed channels, at most one per
// PushInterval, do not carry).
//
// Calls come in the order things are applied, one at a time, with the
// service's lock held: a Listener must return quickly (queue and return)
// and must not call the Service. The slices are the service's own and
// must not be modified; they are never modified afterwards either, so a
// Listener may keep them.
type Listener interface {
	// BookApplied: the symbol's book is now this snapshot (best first, at
	// most what the engine sends, 200 levels per side), whose version is
	// seq (DepthView.Seq).
	BookApplied(symbol string, seq int64, bids, asks []Level)
	// TradesApplied: these trades were applied, oldest first (trades
	// replayed at or below the last id applied are not).
	TradesApplied(symbol string, trades []Trade)
}

// listening is one Listen registration (a pointer, so that the same
// Listener may be registered twice and removed once).
type listening struct{ l Listener }

// Listen registers l and, before anything else is applied, tells it the
// current book of every symbol that has one (BookApplied), so that it
// knows every version from here on. The returned function removes l. A
// reader (Options.Refresh) applies nothing: its listeners hear of nothing
// after that first call.
func (s *Service) Listen(l Listener) (stop func()) {
	reg := &listening{l: l}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, st := range s.syms {
		if st.seq > 0 {
			l.BookApplied(st.pair.Symbol, st.seq, st.bids, st.asks)
		}
	}
	s.listeners = append(s.listeners, reg)
	return func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		for i, r := range s.listeners {
			if r == reg {
				s.listeners = append(s.listeners[:i:i], s.listeners[i+1:]...)
				return
			}
		}
	}
}
