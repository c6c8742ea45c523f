// Command app is the CDK app of Tenger (cdk.json runs it; `make synth` runs
// it directly). It writes the CloudFormation templates to cdk.out, or to
// $CDK_OUTDIR when set, without calling AWS.
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/jsii-runtime-go"

	"tenger/stacks"
)

func main() {
	defer jsii.Close()
	root, err := repoRoot()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	app := awscdk.NewApp(nil)
	cfg := stacks.ConfigFromContext(app, root)
	if _, err := stacks.Build(app, cfg); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	app.Synth(nil)
}

// repoRoot finds the directory holding go.mod, so the app runs the same from
// the root (cdk.json, make synth) and from anywhere below it.
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("stacks: go.mod not found above the working directory")
		}
		dir = parent
	}
}
