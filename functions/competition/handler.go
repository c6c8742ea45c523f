package main

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"tenger/internal/awslambda"
	"tenger/internal/platform"
)

// refreshed is the answer to a scheduled invocation.
type refreshed struct {
	At int64 `json:"at"`
}

// handler answers the EventBridge schedule's events: each runs one
// refresh at the event's time (a late or repeated event refreshes again,
// which changes nothing that did not change).
func handler(rt *awslambda.Runtime, d *platform.Deps) func(ctx context.Context, raw json.RawMessage) (any, error) {
	return func(ctx context.Context, raw json.RawMessage) (any, error) {
		var ev struct {
			DetailType string    `json:"detail-type"`
			ID         string    `json:"id"`
			Time       time.Time `json:"time"`
		}
		if err := json.Unmarshal(raw, &ev); err != nil || ev.DetailType != "Scheduled Event" {
			return nil, fmt.Errorf("competition: not a scheduled event: %s", raw)
		}
		ctx, log := rt.Begin(ctx, ev.ID)
		now := d.Now()
		if err := d.Competition().Refresh(ctx, now); err != nil {
			log.Error().Err(err).Msg("competition refresh failed")
			return nil, err
		}
		log.Info().Time("scheduled", ev.Time).Msg("competitions refreshed")
		return refreshed{At: now.UnixMilli()}, nil
	}
}
