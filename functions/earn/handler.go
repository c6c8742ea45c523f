package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"tenger/internal/awslambda"
	"tenger/internal/earn"
	"tenger/internal/httpapi"
	"tenger/internal/platform"
)

// newHandler builds the earn routers, the same ones `tenger serve` mounts
// (d.EarnArea; in AWS Config.Dev is false, so /dev/earn/advance is not
// among them), from the platform's ports: main passes the AWS adapters,
// the handler test DynamoDB Local. Subscriptions and redemptions move spot
// balances, which the engine owns, so the function needs the engine task.
func newHandler(d *platform.Deps) (http.Handler, error) {
	if err := d.NeedEngine(); err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	httpapi.Mount(mux, d.EarnArea()...)
	return mux, nil
}

// Timing of a scheduled run.
const (
	// runMargin is what a scheduled run leaves of its invocation's time:
	// the run stops this long before Lambda's deadline (the function's
	// timeout), so it ends, logs and answers instead of being cut off. A
	// position is settled by versioned writes, so a run stopped anywhere
	// leaves nothing half done; the next run goes on.
	runMargin = 3 * time.Second
	// runBudget bounds a run whose context has no deadline (only outside
	// Lambda: Lambda's contexts always have one).
	runBudget = 25 * time.Second
)

// runResult is the answer to a scheduled invocation (and its log line).
type runResult struct {
	At int64 `json:"at"`
	// Resumed is how many operations (subscriptions, redemptions, stakes,
	// commitments) an interrupted call left pending the run finished.
	Resumed int `json:"resumed"`
	earn.RunReport
	// Stopped says the run reached its deadline before it was done: the
	// next run continues where it stopped.
	Stopped bool `json:"stopped"`
}

// trigger is what tells the function's two kinds of events apart: the
// HTTP API's payload v2 requests and EventBridge's scheduled events.
type trigger struct {
	Version    string    `json:"version"`
	DetailType string    `json:"detail-type"`
	Source     string    `json:"source"`
	ID         string    `json:"id"`
	Time       time.Time `json:"time"`
	// RequestContext.HTTP.Method is set on every HTTP API request.
	RequestContext struct {
		HTTP struct {
			Method string `json:"method"`
		} `json:"http"`
	} `json:"requestContext"`
}

// handler answers both of the function's event sources: an HTTP API
// request goes through the payload v2 adapter to the earn routers (h); the
// schedule's event runs Resume and then RunDue (scheduled). Anything else
// is refused with an error: nothing else invokes the function.
func handler(rt *awslambda.Runtime, d *platform.Deps, h http.Handler) func(ctx context.Context, raw json.RawMessage) (any, error) {
	serve := rt.HTTP(h)
	return func(ctx context.Context, raw json.RawMessage) (any, error) {
		var tr trigger
		if err := json.Unmarshal(raw, &tr); err != nil {
			return nil, fmt.Errorf("earn: unreadable event: %w", err)
		}
		switch {
		case tr.Version == "2.0" && tr.RequestContext.HTTP.Method != "":
			var ev events.APIGatewayV2HTTPRequest
			if err := json.Unmarshal(raw, &ev); err != nil {
				return nil, fmt.Errorf("earn: http api event: %w", err)
			}
			return serve(ctx, ev)
		case tr.DetailType == "Scheduled Event" && tr.Source == "aws.events":
			return scheduled(ctx, rt, d, tr)
		}
		return nil, fmt.Errorf("earn: neither an HTTP API request nor a scheduled event (version %q, detail-type %q)",
			clip(tr.Version), clip(tr.DetailType))
	}
}

// scheduled is one run of the earn settlement: first the operations an
// interrupted call left pending for earn.ResumeAge, then everything due
// (savings interest through yesterday, standard redemptions paid out,
// auto-subscriptions, stakes' rewards and maturities, launchpad
// distributions, loans' interest and liquidations), until a deadline a
// little under the invocation's. A run that reaches its deadline is no
// failure (the next one, five minutes later, goes on); any other error
// fails the invocation, which the function's errors alarm counts, after
// the rest of the run was done.
func scheduled(ctx context.Context, rt *awslambda.Runtime, d *platform.Deps, tr trigger) (runResult, error) {
	ctx, log := rt.Begin(ctx, tr.ID)
	deadline := time.Now().Add(runBudget)
	if dl, ok := ctx.Deadline(); ok {
		deadline = dl.Add(-runMargin)
	}
	rctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	svc := d.Earn()
	out := runResult{At: d.Now().UnixMilli()}
	var resumeErr, runErr error
	out.Resumed, resumeErr = svc.Resume(rctx)
	out.RunReport, runErr = svc.RunDue(rctx)
	out.Stopped = rctx.Err() != nil && ctx.Err() == nil
	failed := errors.Join(failures(resumeErr, out.Stopped), failures(runErr, out.Stopped))
	ev := log.Info()
	switch {
	case failed != nil:
		ev = log.Error().Err(failed)
	case out.Stopped:
		ev = log.Warn()
	}
	ev.Time("scheduled", tr.Time).Int("resumed", out.Resumed).Int("positions", out.Positions).
		Int64("settled", out.Settled).Int64("autoSubscribed", out.AutoSubscribed).Int("stakes", out.Stakes).
		Int("launchpads", out.Launchpads).Int("loans", out.Loans).Bool("stopped", out.Stopped).
		Dur("left", time.Until(deadline)).Msg(runMessage(failed, out.Stopped))
	if failed != nil {
		return out, fmt.Errorf("earn: scheduled run: %w", failed)
	}
	return out, nil
}

func runMessage(failed error, stopped bool) string {
	switch {
	case failed != nil:
		return "earn run failed in part; the next run retries"
	case stopped:
		return "earn run stopped at its deadline; the next run goes on"
	}
	return "earn run"
}

// failures are the errors of err (a join of several, or one) that are
// failures: once the run stopped at its deadline, the calls its end cut
// short are not.
func failures(err error, stopped bool) error {
	if err == nil || !stopped {
		return err
	}
	var keep []error
	var walk func(error)
	walk = func(e error) {
		if j, ok := e.(interface{ Unwrap() []error }); ok {
			for _, x := range j.Unwrap() {
				walk(x)
			}
			return
		}
		if !errors.Is(e, context.DeadlineExceeded) && !errors.Is(e, context.Canceled) {
			keep = append(keep, e)
		}
	}
	walk(err)
	return errors.Join(keep...)
}

// clip bounds what an unexpected event's fields put in an error.
func clip(s string) string {
	if len(s) > 64 {
		return s[:64]
	}
	return s
}
