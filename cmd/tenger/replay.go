package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	"github.com/aws/aws-sdk-go-v2/service/lambda"
	"github.com/aws/aws-sdk-go-v2/service/sqs"

	"tenger/internal/streamreplay"
)

// runReplayStream replays the table-stream batches a function gave up on
// (internal/streamreplay), with the shell's AWS credentials.
func runReplayStream(args []string) error {
	fs := flag.NewFlagSet("replay-stream", flag.ContinueOnError)
	queue := fs.String("queue-url", "", "the function's stream failure queue (the Realtime stack's StreamFailures, or the Workflows stack's StartFailures)")
	function := fs.String("function", "", "the function to replay into: its name, ARN, or name:live")
	dry := fs.Bool("dry-run", false, "read the pointers and their records, report, invoke and delete nothing")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *queue == "" || *function == "" {
		return errors.New("replay-stream: --queue-url and --function are needed")
	}
	ctx := context.Background()
	cfg, err := config.LoadDefaultConfig(ctx)
	if err != nil {
		return err
	}
	r := streamreplay.Replayer{Queue: sqs.NewFromConfig(cfg), QueueURL: *queue, Streams: dynamodbstreams.NewFromConfig(cfg),
		Lambda: lambda.NewFromConfig(cfg), Function: *function, Region: cfg.Region, DryRun: *dry}
	outs, err := r.Run(ctx)
	if err != nil {
		return err
	}
	if failed := report(os.Stdout, outs, *dry); failed > 0 {
		return fmt.Errorf("replay-stream: %d of %d batches not replayed (they stay in the queue)", failed, len(outs))
	}
	return nil
}

// report prints one line per pointer and returns how many were not replayed.
func report(w io.Writer, outs []streamreplay.Outcome, dry bool) int {
	failed := 0
	for _, o := range outs {
		switch {
		case o.Err != nil:
			failed++
			fmt.Fprintf(w, "%s: kept: %v\n", o.MessageID, o.Err)
		case dry:
			fmt.Fprintf(w, "%s: %d records would be replayed\n", o.MessageID, o.Records)
		default:
			fmt.Fprintf(w, "%s: %d records replayed, pointer deleted\n", o.MessageID, o.Records)
		}
	}
	if len(outs) == 0 {
		fmt.Fprintln(w, "the queue holds no pointers")
	}
	return failed
}
