package httpapi

import (
	"context"
	"time"

	"github.com/rs/zerolog"
	"github.com/shopspring/decimal"

	"tenger/internal/auth"
	"tenger/internal/banksim"
	"tenger/internal/chain"
	"tenger/internal/chainsim"
	"tenger/internal/coins"
	"tenger/internal/deposit"
	"tenger/internal/ledger"
	"tenger/internal/push"
	"tenger/internal/spotfunds"
	"tenger/internal/store"
	"tenger/internal/withdraw"
	"tenger/internal/workflow"
)

// FundsConfig assembles the funds services of the local runtime.
type FundsConfig struct {
	Store  store.Store
	Ledger *ledger.Ledger
	// SpotFunds moves the users' spot balances (the engine's, or the
	// store ledger's when nil).
	SpotFunds spotfunds.Funds
	Coins     *coins.Catalogue
	Auth      *auth.Service
	// Wallet is the accounts side (*wallet.Service).
	Wallet withdraw.Wallet
	Push   push.Pusher
	Now    func() time.Time
	Log    zerolog.Logger
	// Stage "prod" refuses the public development keys.
	Stage string
	// ChainKeys are the deposit xpubs and memo-chain addresses (empty
	// fields take the development keys outside prod).
	ChainKeys chain.Config
	// Bank is the deposit modal's bank block (zero: DefaultBankInfo).
	Bank deposit.BankInfo
	// DailyLimitUSDT is withdraw_daily_limit_usdt (zero: 100000).
	DailyLimitUSDT decimal.Decimal
	// Limits gives each user's 24 h withdrawal limit (the KYC service:
	// the verification level's); nil: DailyLimitUSDT for everyone.
	Limits withdraw.Limits
	// Poll is how often the runner and watcher look for work (zero: 250 ms / 1 s).
	Poll time.Duration
	// Dev: the simulators' /dev routes are served (--dev), so the
	// history's explorer links go to the simulator's explorer
	// (DevExplorerTxURL), where the simulated transactions are.
	Dev bool
}

// Funds are the assembled deposit and withdrawal services with the local
// rails (chain and bank simulators), the workflow runner and the deposit
// watcher.
type Funds struct {
	Deposit  *deposit.Service
	Withdraw *withdraw.Service
	Runner   *workflow.Runner
	Chain    *chainsim.Sim
	Bank     *banksim.Sim
	Watcher  *deposit.Watcher
	users    deposit.Users
}

// NewFunds builds the funds services on the local rails.
func NewFunds(cfg FundsConfig) (*Funds, error) {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Ledger == nil {
		cfg.Ledger = ledger.New(cfg.Store, cfg.Now)
	}
	der, err := deposit.NewDeriver(cfg.Stage, cfg.ChainKeys)
	if err != nil {
		return nil, err
	}
	bank := cfg.Bank
	if bank.Bank == "" {
		bank = deposit.DefaultBankInfo()
	}
	explorer := ""
	if cfg.Dev {
		explorer = DevExplorerTxURL
	}
	dep := deposit.New(deposit.Options{Store: cfg.Store, Ledger: cfg.Ledger, Funds: cfg.SpotFunds, Coins: cfg.Coins, Deriver: der, Push: cfg.Push,
		Bank: bank, ExplorerTxURL: explorer, Now: cfg.Now, Log: cfg.Log})
	runner := workflow.New(workflow.Options{Store: cfg.Store, Now: cfg.Now, Log: cfg.Log, Poll: cfg.Poll})
	cs := chainsim.New(chainsim.Options{Store: cfg.Store, Coins: cfg.Coins, Now: cfg.Now, Log: cfg.Log, Completer: runner})
	bs := banksim.New(banksim.Options{Store: cfg.Store, Now: cfg.Now, Log: cfg.Log, Completer: runner})
	wd := withdraw.New(withdraw.Options{Store: cfg.Store, Ledger: cfg.Ledger, Funds: cfg.SpotFunds, Coins: cfg.Coins, Wallet: cfg.Wallet, Auth: cfg.Auth,
		Chain: cs, Bank: bs, Deposits: dep, BankLedger: bank.Bank, DailyLimitUSDT: cfg.DailyLimitUSDT, Limits: cfg.Limits, ExplorerTxURL: explorer,
		Push: cfg.Push, Now: cfg.Now, Log: cfg.Log})
	wd.SetRunner(runner, runner)
	runner.Register(wd.Steps().Definition())
	f := &Funds{Deposit: dep, Withdraw: wd, Runner: runner, Chain: cs, Bank: bs, Watcher: dep.NewWatcher(cs, 0)}
	if cfg.Auth != nil {
		f.users = cfg.Auth
	}
	return f, nil
}

// Router serves the funds API.
func (f *Funds) Router(opts Options) *Router { return NewFundsRouter(f.Deposit, f.Withdraw, opts) }

// DevRouter serves /dev/chain/* and /dev/bank/* (mount only in --dev).
func (f *Funds) DevRouter(opts Options) *Router {
	return NewDevFundsRouter(DevFunds{Chain: f.Chain, Bank: f.Bank, Deposit: f.Deposit, Watcher: f.Watcher, Users: f.users}, opts)
}

// Start runs the workflow runner, the deposit watcher and the chain
// simulator's confirmation loop until Stop.
func (f *Funds) Start(ctx context.Context) {
	f.Runner.Start(ctx)
	f.Watcher.Start(ctx)
	f.Chain.Start(ctx)
}

// Stop ends the goroutines Start began (before the store closes).
func (f *Funds) Stop() {
	f.Chain.Stop()
	f.Watcher.Stop()
	f.Runner.Stop()
}
