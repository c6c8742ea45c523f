// Package workflow is Tenger's durable in-process step runner: the local
// counterpart of the Step Functions state machines. A workflow instance is
// one store item (its kind, current step, status, attempts and next run
// time); each step is an idempotent function; a runner goroutine picks the
// instances that are due (through the gsi1 index "WFDUE", sorted by next run
// time), runs their step and stores the transition.
//
// Why it loses and duplicates nothing when the process dies at any point:
// the instance is created in the same store transaction as the effect that
// starts it (Op, committed with a ledger posting), every step is idempotent
// by key (a re-run after a crash finds its effect done and does nothing
// more), and a transition is stored with a version condition, so a step
// that was running when the process died is simply run again once its lease
// expires.
//
// Waiting for the outside world is Step Functions' task-token pattern: a
// step that hands a task token to a rail (the chain or bank simulator, or a
// real provider) returns Wait; whoever learns the outcome calls Complete
// with the token, which moves the instance to the definition's OnOK or
// OnFail step. Waiting steps are re-run every RecheckAfter, so a lost
// completion is recovered by the step itself.
//
// Storage layout:
//
//	instance  pk "WF#<id>" sk "WF"  kind, step, status, attempts, input, detail,
//	          lastError, ver, nextRun, created, updated
//	          gsi1pk "WFDUE" gsi1sk "<nextRun ms, 13 digits>#<id>" while not finished
package workflow

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"tenger/internal/store"
)

// Statuses of an instance.
const (
	StatusRunnable = "runnable"
	StatusWaiting  = "waiting"
	StatusDone     = "done"
	StatusFailed   = "failed"
)

const (
	dueIndexPK  = "WFDUE"
	instanceSK  = "WF"
	defaultPoll = 250 * time.Millisecond
)

// Errors.
var (
	// ErrUnknownKind: no definition is registered for the instance's kind.
	ErrUnknownKind = errors.New("workflow: unknown workflow kind")
	// ErrNotFound: no instance has that id.
	ErrNotFound = errors.New("workflow: no such instance")
	// ErrBadToken: a task token that this runner did not issue.
	ErrBadToken = errors.New("workflow: malformed task token")
	// errCrash is returned by a fault-injection hook to stop before the
	// transition is stored (tests only).
	errCrash = errors.New("workflow: simulated crash")
)

// Instance is one workflow run as stored.
type Instance struct {
	ID       string
	Kind     string
	Step     string
	Status   string
	Attempts int
	// Input is the JSON the instance was started with.
	Input json.RawMessage
	// Detail is what the last Complete call passed (the rail's answer).
	Detail string
	// CompletedOK is the outcome of the last Complete call.
	CompletedOK bool
	LastError   string
	Version     int64
	NextRun     time.Time
	Created     time.Time
	Updated     time.Time
}

// Token returns the task token of the instance's current step.
func (in Instance) Token() string { return TokenFor(in.ID, in.Step) }

// TokenFor is the task token of a step of an instance. It is deterministic
// so a step re-run after a crash hands out the same token again.
func TokenFor(id, step string) string {
	return base64.RawURLEncoding.EncodeToString([]byte(id + "\x1f" + step))
}

// ParseToken returns the instance id and step a token names.
func ParseToken(token string) (id, step string, err error) {
	b, err := base64.RawURLEncoding.DecodeString(token)
	if err != nil || len(token) > 512 {
		return "", "", ErrBadToken
	}
	id, step, ok := strings.Cut(string(b), "\x1f")
	if !ok || id == "" || step == "" {
		return "", "", ErrBadToken
	}
	return id, step, nil
}

// Transition is what a step asks for next.
type Transition struct {
	// Next is the step to run next.
	Next string
	// Wait parks the instance until Complete is called with its token (or
	// RecheckAfter passes, when the step runs again).
	Wait bool
	// Done finishes the instance; Failed marks the finish as a failure.
	Done   bool
	Failed bool
}

// Goto is the transition to another step.
func Goto(step string) Transition { return Transition{Next: step} }

// Finish ends the instance successfully.
func Finish() Transition { return Transition{Done: true} }

// Fail ends the instance as failed (after its compensation ran).
func Fail() Transition { return Transition{Done: true, Failed: true} }

// Wait parks the instance until Complete.
func Wait() Transition { return Transition{Wait: true} }

// permanent marks an error that retrying cannot fix.
type permanent struct{ err error }

func (p permanent) Error() string { return p.err.Error() }
func (p permanent) Unwrap() error { return p.err }

// Permanent wraps err so the runner goes straight to the step's OnExhausted
// step instead of retrying.
func Permanent(err error) error { return permanent{err} }

// IsPermanent reports whether err was wrapped with Permanent.
func IsPermanent(err error) bool {
	var p permanent
	return errors.As(err, &p)
}

// Step is one step of a definition.
type Step struct {
	Run func(ctx context.Context, in Instance) (Transition, error)
	// MaxAttempts bounds the tries of a failing step before it goes to
	// OnExhausted; 0 retries for ever (steps that must finish: settle,
	// release).
	MaxAttempts int
	// OnExhausted is the step to run when the tries are used up or the
	// step failed permanently ("" keeps retrying).
	OnExhausted string
	// OnOK and OnFail route Complete calls made with this step's token.
	OnOK, OnFail string
}

// Definition is a kind of workflow: its first step and its steps.
type Definition struct {
	Kind  string
	First string
	Steps map[string]Step
}

// Options configure a Runner.
type Options struct {
	Store store.Store
	Now   func() time.Time
	Log   zerolog.Logger
	// Poll is how often the runner looks for due instances (default 250 ms;
	// Wake makes it look at once).
	Poll time.Duration
	// Lease is how long a claimed step may run before another pass may
	// take it again (default 30 s).
	Lease time.Duration
	// RecheckAfter re-runs waiting steps after this long (default 30 s).
	RecheckAfter time.Duration
	// BackoffBase and BackoffMax shape the retry delays (defaults 200 ms, 1 min).
	BackoffBase, BackoffMax time.Duration
	// BeforeCommit, when set, runs after a step returned and before its
	// transition is stored; a non-nil error abandons the transition as if
	// the process died there. For fault-injection tests only.
	BeforeCommit func(in Instance, t Transition, stepErr error) error
}

// Runner runs the due instances of its definitions.
type Runner struct {
	o    Options
	mu   sync.RWMutex
	defs map[string]Definition
	wake chan struct{}

	runMu  sync.Mutex
	cancel context.CancelFunc
	done   chan struct{}
}

// New returns a runner; register definitions before Start.
func New(o Options) *Runner {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Poll <= 0 {
		o.Poll = defaultPoll
	}
	if o.Lease <= 0 {
		o.Lease = 30 * time.Second
	}
	if o.RecheckAfter <= 0 {
		o.RecheckAfter = 30 * time.Second
	}
	if o.BackoffBase <= 0 {
		o.BackoffBase = 200 * time.Millisecond
	}
	if o.BackoffMax <= 0 {
		o.BackoffMax = time.Minute
	}
	return &Runner{o: o, defs: map[string]Definition{}, wake: make(chan struct{}, 1)}
}

// Register adds a definition.
func (r *Runner) Register(d Definition) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.defs[d.Kind] = d
}

func (r *Runner) def(kind string) (Definition, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	d, ok := r.defs[kind]
	return d, ok
}

func instanceKey(id string) store.Key { return store.Key{PK: "WF#" + id, SK: instanceSK} }

func dueSK(at time.Time, id string) string { return fmt.Sprintf("%013d#%s", at.UnixMilli(), id) }

// StartOp returns the store operation that creates an instance of kind at
// its first step, due now. Commit it in the same transaction as the effect
// that starts the workflow (for a withdrawal: the hold posting), so the two
// exist together or not at all. Creating an id twice fails the condition.
func StartOp(d Definition, id string, input any, now time.Time) (store.Op, error) {
	if id == "" || strings.ContainsAny(id, "\x1f") || len(id) > 200 {
		return store.Op{}, fmt.Errorf("workflow: bad instance id %q", id)
	}
	if _, ok := d.Steps[d.First]; !ok {
		return store.Op{}, fmt.Errorf("workflow: %s has no first step %q", d.Kind, d.First)
	}
	in, err := json.Marshal(input)
	if err != nil {
		return store.Op{}, fmt.Errorf("workflow: input: %w", err)
	}
	k := instanceKey(id)
	it := store.Item{
		store.AttrPK: k.PK, store.AttrSK: k.SK,
		"id": id, "kind": d.Kind, "step": d.First, "status": StatusRunnable, "attempts": 0,
		"input": string(in), "nextRun": now.UnixMilli(), "created": now.UnixMilli(), "updated": now.UnixMilli(),
		store.AttrVersion: int64(1),
		store.AttrGSI1PK:  dueIndexPK, store.AttrGSI1SK: dueSK(now, id),
	}
	return store.PutOp(it, store.ItemNotExists()), nil
}

// StartOpAt is StartOp for an instance whose first step is due at at (a
// deadline: a P2P order's payment time). In Step Functions the same wait
// is a Wait state with a timestamp.
func StartOpAt(d Definition, id string, input any, now, at time.Time) (store.Op, error) {
	op, err := StartOp(d, id, input, now)
	if err != nil {
		return op, err
	}
	op.Item["nextRun"] = at.UnixMilli()
	op.Item[store.AttrGSI1SK] = dueSK(at, id)
	return op, nil
}

// DueOp returns the store operation that makes a runnable instance due at
// at instead of when it was due (an operator's or the dev simulator's
// "the deadline is now"). It fails its condition when the instance has
// moved on: finished, failed or handed to Step Functions.
func DueOp(id string, at time.Time) store.Op {
	upd := store.NewUpdate().Set("nextRun", at.UnixMilli()).Set("updated", at.UnixMilli()).
		Set(store.AttrGSI1SK, dueSK(at, id)).AddInt(store.AttrVersion, 1)
	return store.UpdateOp(instanceKey(id), upd, store.And(store.Eq("status", StatusRunnable), store.Eq(store.AttrGSI1PK, dueIndexPK)))
}

// Submit creates an instance on its own (when no other effect starts it).
// Submitting an existing id is a no-op.
func (r *Runner) Submit(ctx context.Context, kind, id string, input any) error {
	d, ok := r.def(kind)
	if !ok {
		return fmt.Errorf("%w: %s", ErrUnknownKind, kind)
	}
	op, err := StartOp(d, id, input, r.o.Now())
	if err != nil {
		return err
	}
	err = r.o.Store.Put(ctx, op.Item, op.Cond)
	if errors.Is(err, store.ErrConditionFailed) {
		return nil
	}
	if err == nil {
		r.Wake()
	}
	return err
}

func instanceOf(it store.Item) Instance {
	return Instance{
		ID: it.Str("id"), Kind: it.Str("kind"), Step: it.Str("step"), Status: it.Str("status"),
		Attempts: int(it.Int("attempts")), Input: json.RawMessage(it.Str("input")), Detail: it.Str("detail"),
		CompletedOK: it.Bool("completedOK"), LastError: it.Str("lastError"), Version: it.Int(store.AttrVersion),
		NextRun: time.UnixMilli(it.Int("nextRun")), Created: time.UnixMilli(it.Int("created")),
		Updated: time.UnixMilli(it.Int("updated")),
	}
}

// Get reads an instance.
func (r *Runner) Get(ctx context.Context, id string) (Instance, error) {
	it, err := r.o.Store.Get(ctx, instanceKey(id))
	if errors.Is(err, store.ErrNotFound) {
		return Instance{}, ErrNotFound
	}
	if err != nil {
		return Instance{}, err
	}
	return instanceOf(it), nil
}

// Wake makes a started runner look for due instances now.
func (r *Runner) Wake() {
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

// Complete delivers the outcome of a waiting step: the instance moves to
// the step's OnOK (ok) or OnFail step with detail recorded. A token whose
// step is no longer current is ignored (the completion was already
// delivered), so rails may call Complete more than once.
func (r *Runner) Complete(ctx context.Context, token string, ok bool, detail string) error {
	id, step, err := ParseToken(token)
	if err != nil {
		return err
	}
	for try := 0; try < 20; try++ {
		in, err := r.Get(ctx, id)
		if err != nil {
			return err
		}
		if in.Step != step || in.Status == StatusDone || in.Status == StatusFailed {
			return nil
		}
		d, found := r.def(in.Kind)
		if !found {
			return fmt.Errorf("%w: %s", ErrUnknownKind, in.Kind)
		}
		st := d.Steps[step]
		next := st.OnOK
		if !ok {
			next = st.OnFail
		}
		if next == "" {
			return fmt.Errorf("workflow: step %s of %s takes no completion", step, in.Kind)
		}
		now := r.o.Now()
		if len(detail) > 2000 {
			detail = detail[:2000]
		}
		upd := store.NewUpdate().Set("step", next).Set("status", StatusRunnable).Set("attempts", 0).
			Set("detail", detail).Set("completedOK", ok).Set("nextRun", now.UnixMilli()).Set("updated", now.UnixMilli()).
			Set(store.AttrVersion, in.Version+1).Set(store.AttrGSI1PK, dueIndexPK).Set(store.AttrGSI1SK, dueSK(now, id))
		_, err = r.o.Store.Update(ctx, instanceKey(id), upd, store.And(store.Eq(store.AttrVersion, in.Version), store.Eq("step", step)))
		if errors.Is(err, store.ErrConditionFailed) {
			continue // the runner stored a transition meanwhile; look again
		}
		if err != nil {
			return err
		}
		r.o.Log.Info().Str("workflow", in.Kind).Str("id", id).Str("step", step).Bool("ok", ok).Str("next", next).Msg("task completed")
		r.Wake()
		return nil
	}
	return fmt.Errorf("workflow: completing %s: too much contention", id)
}

// RunDue runs every instance due now, one step each, and reports how many
// steps ran. Start calls it in a loop; tests call it directly.
func (r *Runner) RunDue(ctx context.Context) (int, error) {
	now := r.o.Now()
	q := store.Query{Index: store.IndexGSI1, PK: dueIndexPK, SK: store.SKCond{Kind: store.SKLe, A: dueSK(now, "\xff")}, Limit: 100}
	ran := 0
	for {
		page, err := r.o.Store.Query(ctx, q)
		if err != nil {
			return ran, err
		}
		for _, it := range page.Items {
			if ctx.Err() != nil {
				return ran, ctx.Err()
			}
			did, err := r.runOne(ctx, it.Str("id"), now)
			if err != nil {
				if errors.Is(err, errCrash) {
					return ran, err
				}
				r.o.Log.Error().Err(err).Str("id", it.Str("id")).Msg("workflow step")
			}
			if did {
				ran++
			}
		}
		if page.Cursor == "" {
			return ran, nil
		}
		q.Cursor = page.Cursor
	}
}

// runOne claims and runs one step of an instance.
func (r *Runner) runOne(ctx context.Context, id string, now time.Time) (bool, error) {
	in, err := r.Get(ctx, id)
	if err != nil {
		return false, err
	}
	if in.Status == StatusDone || in.Status == StatusFailed || in.NextRun.After(now) {
		return false, nil
	}
	d, ok := r.def(in.Kind)
	if !ok {
		return false, fmt.Errorf("%w: %s", ErrUnknownKind, in.Kind)
	}
	st, ok := d.Steps[in.Step]
	if !ok {
		return false, fmt.Errorf("workflow: %s has no step %q", in.Kind, in.Step)
	}
	// Claim: push the next run past the lease so a concurrent pass (or
	// this one after a crash) takes it only when the lease has run out.
	lease := now.Add(r.o.Lease)
	claim := store.NewUpdate().Set("nextRun", lease.UnixMilli()).Set(store.AttrGSI1SK, dueSK(lease, id)).
		Set(store.AttrVersion, in.Version+1)
	if _, err := r.o.Store.Update(ctx, instanceKey(id), claim, store.Eq(store.AttrVersion, in.Version)); err != nil {
		if errors.Is(err, store.ErrConditionFailed) {
			return false, nil
		}
		return false, err
	}
	in.Version++
	t, stepErr := r.call(ctx, st, in)
	if r.o.BeforeCommit != nil {
		if err := r.o.BeforeCommit(in, t, stepErr); err != nil {
			return true, errCrash
		}
	}
	return true, r.commit(ctx, d, st, in, t, stepErr)
}

func (r *Runner) call(ctx context.Context, st Step, in Instance) (t Transition, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("workflow: step %s panicked: %v", in.Step, p)
		}
	}()
	return st.Run(ctx, in)
}

func (r *Runner) commit(ctx context.Context, d Definition, st Step, in Instance, t Transition, stepErr error) error {
	now := r.o.Now()
	upd := store.NewUpdate().Set(store.AttrVersion, in.Version+1).Set("updated", now.UnixMilli())
	log := r.o.Log.With().Str("workflow", in.Kind).Str("id", in.ID).Str("step", in.Step).Logger()
	switch {
	case stepErr != nil:
		attempts := in.Attempts + 1
		if (IsPermanent(stepErr) || (st.MaxAttempts > 0 && attempts >= st.MaxAttempts)) && st.OnExhausted != "" {
			log.Warn().Err(stepErr).Int("attempts", attempts).Str("next", st.OnExhausted).Msg("step failed; compensating")
			upd.Set("step", st.OnExhausted).Set("attempts", 0).Set("status", StatusRunnable).
				Set("lastError", trim(stepErr.Error())).Set("nextRun", now.UnixMilli()).Set(store.AttrGSI1SK, dueSK(now, in.ID))
			break
		}
		next := now.Add(r.backoff(attempts))
		log.Warn().Err(stepErr).Int("attempts", attempts).Time("retry_at", next).Msg("step failed; will retry")
		upd.Set("attempts", attempts).Set("lastError", trim(stepErr.Error())).Set("status", StatusRunnable).
			Set("nextRun", next.UnixMilli()).Set(store.AttrGSI1SK, dueSK(next, in.ID))
	case t.Done:
		status := StatusDone
		if t.Failed {
			status = StatusFailed
		}
		upd.Set("status", status).Remove(store.AttrGSI1PK).Remove(store.AttrGSI1SK)
		log.Info().Str("status", status).Msg("workflow finished")
	case t.Wait:
		next := now.Add(r.o.RecheckAfter)
		upd.Set("status", StatusWaiting).Set("nextRun", next.UnixMilli()).Set(store.AttrGSI1SK, dueSK(next, in.ID))
	case t.Next != "":
		if _, ok := d.Steps[t.Next]; !ok {
			return fmt.Errorf("workflow: step %s asked for unknown step %q", in.Step, t.Next)
		}
		upd.Set("step", t.Next).Set("attempts", 0).Set("status", StatusRunnable).
			Set("nextRun", now.UnixMilli()).Set(store.AttrGSI1SK, dueSK(now, in.ID))
	default:
		return fmt.Errorf("workflow: step %s returned an empty transition", in.Step)
	}
	_, err := r.o.Store.Update(ctx, instanceKey(in.ID), upd, store.And(store.Eq(store.AttrVersion, in.Version), store.Eq("step", in.Step)))
	if errors.Is(err, store.ErrConditionFailed) {
		// Complete moved the instance on while the step ran; its move wins.
		return nil
	}
	return err
}

func (r *Runner) backoff(attempts int) time.Duration {
	d := r.o.BackoffBase
	for i := 1; i < attempts && d < r.o.BackoffMax; i++ {
		d *= 2
	}
	return min(d, r.o.BackoffMax)
}

func trim(s string) string {
	if len(s) > 500 {
		return s[:500]
	}
	return s
}

// Start runs the runner in a goroutine until Stop (or ctx ends).
func (r *Runner) Start(ctx context.Context) {
	r.runMu.Lock()
	defer r.runMu.Unlock()
	if r.cancel != nil {
		return
	}
	ctx, cancel := context.WithCancel(ctx)
	r.cancel = cancel
	r.done = make(chan struct{})
	go func() {
		defer close(r.done)
		t := time.NewTicker(r.o.Poll)
		defer t.Stop()
		for {
			if _, err := r.RunDue(ctx); err != nil && ctx.Err() == nil {
				r.o.Log.Error().Err(err).Msg("workflow pass")
			}
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			case <-r.wake:
			}
		}
	}()
}

// Stop ends the goroutine Start began and waits for the step in flight.
func (r *Runner) Stop() {
	r.runMu.Lock()
	cancel, done := r.cancel, r.done
	r.cancel, r.done = nil, nil
	r.runMu.Unlock()
	if cancel != nil {
		cancel()
		<-done
	}
}

// HandedOver is an instance that another runner runs (AWS: Step Functions,
// started by the wfstart function): it leaves the due index, so neither
// this runner nor a sweep looks at it again, and notes when.
func HandedOver(ctx context.Context, st store.Store, id string, at time.Time) error {
	_, err := st.Update(ctx, instanceKey(id), store.NewUpdate().Remove(store.AttrGSI1PK).Remove(store.AttrGSI1SK).
		Set("handedOver", at.UnixMilli()), store.ItemExists())
	if errors.Is(err, store.ErrConditionFailed) {
		return ErrNotFound
	}
	return err
}

// Waiting lists the instances of kind still in the due index that were due
// before a time: in AWS, those whose Step Functions execution was never
// started (their stream record kept failing), which a sweep starts.
func Waiting(ctx context.Context, st store.Store, kind string, before time.Time) ([]Instance, error) {
	var out []Instance
	q := store.Query{Index: store.IndexGSI1, PK: dueIndexPK, SK: store.SKRange("0", dueSK(before, "\x7f"))}
	err := store.EachLive(ctx, st, q, before, func(it store.Item) {
		if it.Str("kind") == kind {
			out = append(out, Instance{ID: it.Str("id"), Kind: kind, Step: it.Str("step"), Status: it.Str("status"),
				Input: json.RawMessage(it.Str("input"))})
		}
	})
	return out, err
}
