package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"text/tabwriter"

	"tenger/internal/coins"
)

// runCoins lists the coin and chain catalogue or changes one setting in the
// operator file (<data>/coins.json). A running server reads the file at
// start, so restart it after a change.
func runCoins(args []string) error {
	fs := flag.NewFlagSet("coins", flag.ContinueOnError)
	data := fs.String("data", "./.tenger-data", "data directory")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `tenger coins [--data DIR] list
tenger coins [--data DIR] set SYMBOL CHAIN FIELD VALUE
    CHAIN "-" sets a coin field (name, longName, precision, icon, isFiat, depositCode, withdrawCode);
    otherwise a chain field (mainChainName, tagType, depositOpen, withdrawOpen, precision,
    withdrawFee, withdrawMin, withdrawMax, confirmations, depositMin, blockSeconds, explorerTxUrl).
    The result is validated before it is saved.
`)
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	rest := fs.Args()
	switch {
	case len(rest) == 1 && rest[0] == "list":
		cat, err := coins.Load(*data)
		if err != nil {
			return err
		}
		w := tabwriter.NewWriter(os.Stdout, 0, 2, 2, ' ', 0)
		fmt.Fprintln(w, "COIN\tCHAIN\tPRECISION\tDEPOSIT\tWITHDRAW\tFEE\tMIN\tMAX\tCONFIRMATIONS")
		for _, c := range cat.List() {
			for _, ch := range c.Chains {
				fmt.Fprintf(w, "%s\t%s\t%d\t%v\t%v\t%s\t%s\t%s\t%d\n", c.Symbol, ch.Name, ch.Precision, ch.DepositOpen,
					ch.WithdrawOpen, ch.WithdrawFee, ch.WithdrawMin, ch.WithdrawMax, ch.Confirmations)
			}
		}
		return w.Flush()
	case len(rest) == 5 && rest[0] == "set":
		chain := rest[2]
		if chain == "-" {
			chain = ""
		}
		if err := os.MkdirAll(*data, 0o700); err != nil {
			return err
		}
		path := filepath.Join(*data, coins.OperatorFile)
		if err := coins.Set(path, rest[1], chain, rest[3], rest[4]); err != nil {
			return err
		}
		fmt.Printf("saved to %s; restart tenger serve to apply\n", path)
		return nil
	}
	fs.Usage()
	return errors.New("coins: expected list or set SYMBOL CHAIN FIELD VALUE")
}
