// Command workflow is the Lambda function behind the withdrawal state
// machine's tasks. Each state calls one of internal/withdraw's Steps
// (validate, hold, send, await with a task token, settle, release), the
// same functions the in-process runner of `tenger serve` calls, on the
// DynamoDB store, and answers their StepOutput; the state machine branches
// on its next field. Rails answer through Step Functions' task tokens
// (sfntask.Completer). RAILS picks the rails: "simulated" (non-production
// stages) or "none" (production until real rails exist: sends are refused
// and the withdrawal released).
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/aws/aws-lambda-go/lambda"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/sfn"

	"tenger/internal/awslambda"
	"tenger/internal/banksim"
	"tenger/internal/chainsim"
	"tenger/internal/deposit"
	"tenger/internal/platform"
	"tenger/internal/withdraw"
	"tenger/internal/workflow/sfntask"
)

// EnvRails names the rails mode variable.
const EnvRails = "RAILS"

func main() {
	rt := awslambda.NewRuntime("workflow", os.Stdout)
	log := rt.Logger()
	ctx := context.Background()
	d, err := platform.NewAWS(ctx, log)
	if err != nil {
		log.Fatal().Err(err).Msg("start")
	}
	awsCfg, err := config.LoadDefaultConfig(ctx)
	if err != nil {
		log.Fatal().Err(err).Msg("start")
	}
	w, err := newWorker(d, sfntask.Completer{API: sfn.NewFromConfig(awsCfg)}, os.Getenv(EnvRails))
	if err != nil {
		log.Fatal().Err(err).Msg("start")
	}
	log.Info().Str("rails", w.rails).Msg("withdrawal workflow ready")
	lambda.Start(handler(rt, w))
}

// newWorker builds the withdrawal service on the platform's ports with the
// given rails, answering task tokens through comp. Production refuses the
// simulated rails: it would pay out nothing while marking withdrawals paid.
func newWorker(d *platform.Deps, comp completer, rails string) (*worker, error) {
	if rails == "" {
		rails = RailsNone
	}
	if rails != RailsSimulated && rails != RailsNone {
		return nil, fmt.Errorf("workflow: %s=%q; want %q or %q", EnvRails, rails, RailsSimulated, RailsNone)
	}
	if rails == RailsSimulated && d.Config.Stage == "prod" {
		return nil, fmt.Errorf("workflow: the simulated rails are refused in prod")
	}
	// Holds, settlements and releases are commands to the engine task.
	if err := d.NeedEngine(); err != nil {
		return nil, err
	}
	o := withdraw.Options{Store: d.Store, Ledger: d.Ledger(), Funds: d.SpotFunds(), Coins: d.Coins, Wallet: d.Wallet(), Auth: d.Auth(),
		BankLedger: deposit.DefaultBankInfo().Bank, Push: d.Push, Now: d.Now, Log: d.Log}
	w := &worker{comp: comp, rails: rails, coins: d.Coins}
	if rails == RailsSimulated {
		w.chain = chainsim.New(chainsim.Options{Store: d.Store, Coins: d.Coins, Now: d.Now, Log: d.Log, Completer: comp})
		w.bank = banksim.New(banksim.Options{Store: d.Store, Now: d.Now, Log: d.Log, Completer: comp})
		o.Chain, o.Bank = w.chain, w.bank
	}
	w.wd = withdraw.New(o)
	// Rails' answers go to Step Functions; there is no in-process runner
	// to wake.
	w.wd.SetRunner(comp, nil)
	w.steps = w.wd.Steps()
	return w, nil
}

// handler runs one step under the invocation's logging context, keyed by the
// correlation id the state machine carries.
func handler(rt *awslambda.Runtime, w *worker) func(context.Context, stepInput) (stepOutput, error) {
	return func(ctx context.Context, in stepInput) (stepOutput, error) {
		ctx, _ = rt.Begin(ctx, in.CorrelationID)
		return w.run(ctx, in)
	}
}
