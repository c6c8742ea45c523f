package binance

import (
	"context"
	"errors"
	"slices"
	"strings"
)

// StreamSubs is one connection's market stream subscriptions, as its
// transport keeps them: in memory beside the connection in `tenger serve`
// (wsSession), in the table in AWS, where each frame is a function
// invocation of its own (internal/binance/wsstreamsaws). The frames'
// meaning is AnswerStreamFrame's, the same for both.
type StreamSubs interface {
	// Streams are the connection's stream names in subscription order, and
	// whether its events are combined ({"stream","data"}).
	Streams(ctx context.Context) (names []string, combined bool, err error)
	// Update changes them at once with respect to the connection's other
	// frames: change gets the current names and flag and returns the new
	// ones (names kept in order, new ones appended), or an error that
	// refuses the frame (too many streams) and changes nothing. The
	// transport then starts the streams added and stops those removed;
	// named are the streams the frame names, which a transport that may
	// have been cut short in an earlier frame (AWS) sets anew, listed or
	// not.
	Update(ctx context.Context, named []string, change func(names []string, combined bool) ([]string, bool, error)) error
}

// errWSInternal answers a frame the transport could not serve (a store
// failure): the client may send it again.
var errWSInternal = &wsError{Code: -1001, Msg: "Internal error; unable to process your request. Please try again."}

// IsStreamFrame reports whether a frame sent on the web app's WebSocket
// endpoint speaks Binance's market stream dialect (claimsFrame): the
// endpoint answers it with AnswerStreamFrame.
func IsStreamFrame(frame []byte) bool { return claimsFrame(frame) }

// AnswerStreamFrame serves one of Binance's live subscription frames
// (ws_frames.go) on a connection's subscriptions and returns the answer
// to send back.
func (s *Server) AnswerStreamFrame(ctx context.Context, c StreamSubs, frame []byte) []byte {
	return s.answerStreamFrame(ctx, c, frame, MaxStreamsPerConn)
}

func (s *Server) answerStreamFrame(ctx context.Context, c StreamSubs, frame []byte, maxStreams int) []byte {
	req, rerr := parseWSRequest(frame)
	if rerr == nil && (req.method == wsSubscribe || req.method == wsUnsubscribe) {
		for _, n := range req.streams {
			if _, ok := s.parseStream(n); !ok {
				rerr = errWSInvalidStream
				break
			}
		}
	}
	if rerr != nil {
		return errorFrame(req.id, rerr)
	}
	var result any
	var err error
	switch req.method {
	case wsSubscribe:
		err = c.Update(ctx, req.streams, func(names []string, combined bool) ([]string, bool, error) {
			for _, n := range req.streams {
				if !slices.Contains(names, n) {
					names = append(names, n)
				}
			}
			if len(names) > maxStreams {
				return nil, false, tooManyStreams(maxStreams)
			}
			return names, combined, nil
		})
	case wsUnsubscribe:
		err = c.Update(ctx, req.streams, func(names []string, combined bool) ([]string, bool, error) {
			return slices.DeleteFunc(names, func(n string) bool { return slices.Contains(req.streams, n) }), combined, nil
		})
	case wsList, wsGetProperty:
		var names []string
		var combined bool
		names, combined, err = c.Streams(ctx)
		if req.method == wsList {
			result = append([]string{}, names...)
		} else {
			result = combined
		}
	case wsSetProperty:
		err = c.Update(ctx, nil, func(names []string, _ bool) ([]string, bool, error) { return names, req.value, nil })
	}
	if err != nil {
		var we *wsError
		if errors.As(err, &we) {
			return errorFrame(req.id, we)
		}
		s.log.Warn().Err(err).Str("method", req.method).Msg("binance: stream subscription frame failed")
		return errorFrame(req.id, errWSInternal)
	}
	return resultFrame(req.id, result)
}

// StreamChannel is the push channel (internal/push) of one market stream
// for the connections that listen to it raw or combined. In AWS a
// connection's subscription to a stream is a subscription to its channel,
// and the engine task publishes each stream's events to its channels.
func StreamChannel(stream string, combined bool) string {
	if combined {
		return channelCombined + stream
	}
	return channelRaw + stream
}

// ParseStreamChannel reads a StreamChannel.
func ParseStreamChannel(channel string) (stream string, combined, ok bool) {
	if s, ok := strings.CutPrefix(channel, channelCombined); ok {
		return s, true, s != ""
	}
	s, ok := strings.CutPrefix(channel, channelRaw)
	return s, false, ok && s != ""
}

// Stream channel prefixes: none of the web app's channels (market_…,
// user_…) starts so.
const (
	channelRaw      = "binance:"
	channelCombined = "binance+:"
)

// URLStreams reads the stream names a connection's URL gives
// (/ws/<a>/<b>, /stream?streams=<a>/<b>): the streams served, and the
// listen keys (user data streams); other names are ignored, as Binance
// does. More than MaxStreamsPerConn streams is an error.
func (s *Server) URLStreams(list string) (streams, listenKeys []string, err error) {
	specs, keys, werr := s.urlStreams(strings.Split(list, "/"), MaxStreamsPerConn)
	if werr != nil {
		return nil, nil, werr
	}
	for _, sp := range specs {
		streams = append(streams, sp.name)
	}
	return streams, keys, nil
}

func (s *Server) urlStreams(names []string, maxStreams int) (specs []streamSpec, listenKeys []string, err *wsError) {
	seen := map[string]bool{}
	for _, n := range names {
		if seen[n] {
			continue
		}
		seen[n] = true
		if sp, ok := s.parseStream(n); ok {
			specs = append(specs, sp)
		} else if listenKeyRE.MatchString(n) {
			listenKeys = append(listenKeys, n)
		}
	}
	if len(specs) > maxStreams {
		return nil, nil, tooManyStreams(maxStreams)
	}
	return specs, listenKeys, nil
}
