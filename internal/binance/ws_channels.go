package binance

import (
	"slices"
)

// ChannelStreams are the market streams published to push channels
// (StreamChannel) rather than sent to connections: AWS's engine task runs
// them, and API Gateway delivers each channel's events to the connections
// subscribed to it. Which channels have listeners is told by SyncChannels
// (the table's registry of subscribed channels, read every second); each
// is a subscriber of its stream here, so a stream's events are computed
// once for all its connections, raw and combined apart. publish must not
// wait (push.Async queues). Close stops following market data.
func (s *Server) ChannelStreams(publish func(channel string, msg []byte)) *Streams {
	st := s.Streams(nil)
	st.publish = publish
	st.chans = map[string]*wsSession{}
	return st
}

// ChannelState is a channel in the registry: Fresh when a connection has
// subscribed to it lately, so that its periodic streams (partial book,
// tickers, klines, book ticker), which otherwise send only what changed,
// send the current picture again for the newcomer.
type ChannelState struct {
	Channel string
	Fresh   bool
}

// SyncChannels makes the channels listed the ones published: a channel
// not published yet starts (a diff depth stream at the book's current
// version), one no longer listed stops, and a Fresh one's periodic stream
// sends its current picture at its next period. Channels that name no
// stream are ignored.
func (st *Streams) SyncChannels(chans []ChannelState) {
	st.mu.Lock()
	defer st.mu.Unlock()
	want := make(map[string]bool, len(chans))
	for _, c := range chans {
		name, combined, ok := ParseStreamChannel(c.Channel)
		if !ok {
			continue
		}
		sp, ok := st.s.parseStream(name)
		if !ok {
			continue
		}
		want[c.Channel] = true
		ss := st.chans[c.Channel]
		if ss == nil {
			ch := c.Channel
			ss = st.newSession(func(msg []byte) bool { st.publish(ch, msg); return true }, combined)
			st.chans[ch] = ss
			st.subscribeLocked(ss, sp) // a new subscriber: fresh
			continue
		}
		if s := ss.subs[name]; s != nil && c.Fresh {
			s.subs[ss] = true
		}
	}
	for ch, ss := range st.chans {
		if want[ch] {
			continue
		}
		for _, n := range slices.Clone(ss.names) {
			st.unsubscribeLocked(ss, n)
		}
		ss.closed = true
		delete(st.chans, ch)
	}
}

// Channels lists the channels published (tests, health).
func (st *Streams) Channels() []string {
	st.mu.Lock()
	defer st.mu.Unlock()
	out := make([]string, 0, len(st.chans))
	for ch := range st.chans {
		out = append(out, ch)
	}
	slices.Sort(out)
	return out
}
