package stacks

import (
	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/aws-cdk-go/awscdk/v2/awslambda"
	"github.com/aws/aws-cdk-go/awscdk/v2/awslogs"
	sfn "github.com/aws/aws-cdk-go/awscdk/v2/awsstepfunctions"
	tasks "github.com/aws/aws-cdk-go/awscdk/v2/awsstepfunctionstasks"
	"github.com/aws/constructs-go/constructs/v10"
	"github.com/aws/jsii-runtime-go"
)

// Error names the workflow function raises (its Go error type names, which
// Lambda reports as the error type) and the state machine retries on.
const (
	// errTransient: a dependency was briefly unavailable; retrying is safe
	// because every step is idempotent on the withdrawal id.
	errTransient = "Transient"
)

// confirmationTimeout bounds the wait for the chain or bank confirmation;
// after it the withdrawal is released back to the user.
const confirmationTimeoutHours = 72

// WorkflowsStack holds the withdrawal state machine and its step function.
type WorkflowsStack struct {
	awscdk.Stack
	Withdrawal sfn.StateMachine
	Function   awslambda.Function
}

// NewWorkflowsStack creates the withdrawal workflow:
//
//	validate → (invalid → Rejected)
//	         → hold → send → await confirmation (task token) → settle → done
//	hold fails                        → HoldFailed (nothing was held)
//	send or confirmation fails/times out → release → Released
//	release fails                     → ReleaseFailed (alarmed; an operator acts)
//
// Every task retries transient errors with backoff; settle and release retry
// longer because they must eventually happen once the money moved or not.
func NewWorkflowsStack(scope constructs.Construct, id string, props *awscdk.StackProps, cfg Config, data *DataStack, env map[string]string) *WorkflowsStack {
	st := awscdk.NewStack(scope, jsii.String(id), props)
	s := &WorkflowsStack{Stack: st}
	s.Function = newGoFunction(st, cfg, goFunctionProps{
		Name: "workflow", Description: "withdrawal workflow steps", Env: env, TimeoutSec: 30,
	})
	data.Table.GrantReadWriteData(s.Function)

	step := func(id, name string, pattern sfn.IntegrationPattern, retries float64) tasks.LambdaInvoke {
		payload := map[string]interface{}{
			"step":          name,
			"withdrawal":    sfn.JsonPath_ObjectAt(jsii.String("$.withdrawal")),
			"executionId":   sfn.JsonPath_ExecutionId(),
			"correlationId": sfn.JsonPath_StringAt(jsii.String("$.correlationId")),
		}
		if pattern == sfn.IntegrationPattern_WAIT_FOR_TASK_TOKEN {
			payload["taskToken"] = sfn.JsonPath_TaskToken()
		}
		props := &tasks.LambdaInvokeProps{
			LambdaFunction:      s.Function,
			Payload:             sfn.TaskInput_FromObject(&payload),
			PayloadResponseOnly: jsii.Bool(true),
			ResultPath:          jsii.String("$.results." + name),
		}
		if pattern == sfn.IntegrationPattern_WAIT_FOR_TASK_TOKEN {
			props.PayloadResponseOnly = nil
			props.IntegrationPattern = pattern
			props.TaskTimeout = sfn.Timeout_Duration(awscdk.Duration_Hours(jsii.Number(confirmationTimeoutHours)))
		}
		t := tasks.NewLambdaInvoke(st, jsii.String(id), props)
		t.AddRetry(&sfn.RetryProps{
			Errors:         jsii.Strings(errTransient),
			Interval:       awscdk.Duration_Seconds(jsii.Number(2)),
			BackoffRate:    jsii.Number(2),
			MaxAttempts:    jsii.Number(retries),
			MaxDelay:       awscdk.Duration_Minutes(jsii.Number(5)),
			JitterStrategy: sfn.JitterType_FULL,
		})
		return t
	}

	validate := step("Validate", "validate", sfn.IntegrationPattern_REQUEST_RESPONSE, 3)
	hold := step("Hold", "hold", sfn.IntegrationPattern_REQUEST_RESPONSE, 3)
	send := step("Send", "send", sfn.IntegrationPattern_REQUEST_RESPONSE, 3)
	await := step("AwaitConfirmation", "await", sfn.IntegrationPattern_WAIT_FOR_TASK_TOKEN, 3)
	settle := step("Settle", "settle", sfn.IntegrationPattern_REQUEST_RESPONSE, 20)
	release := step("Release", "release", sfn.IntegrationPattern_REQUEST_RESPONSE, 20)

	rejected := sfn.NewFail(st, jsii.String("Rejected"), &sfn.FailProps{
		Error: jsii.String("WithdrawalRejected"), Cause: jsii.String("validation failed; nothing was held"),
	})
	holdFailed := sfn.NewFail(st, jsii.String("HoldFailed"), &sfn.FailProps{
		Error: jsii.String("HoldFailed"), Cause: jsii.String("funds could not be held; nothing was sent"),
	})
	released := sfn.NewFail(st, jsii.String("Released"), &sfn.FailProps{
		Error: jsii.String("WithdrawalReleased"), Cause: jsii.String("sending failed or was not confirmed; the hold was released"),
	})
	releaseFailed := sfn.NewFail(st, jsii.String("ReleaseFailed"), &sfn.FailProps{
		Error: jsii.String("ReleaseFailed"), Cause: jsii.String("the hold could not be released; operator action needed"),
	})
	done := sfn.NewSucceed(st, jsii.String("Settled"), nil)

	errPath := jsii.String("$.error")
	hold.AddCatch(holdFailed, &sfn.CatchProps{Errors: jsii.Strings("States.ALL"), ResultPath: errPath})
	send.AddCatch(release, &sfn.CatchProps{Errors: jsii.Strings("States.ALL"), ResultPath: errPath})
	await.AddCatch(release, &sfn.CatchProps{Errors: jsii.Strings("States.ALL"), ResultPath: errPath})
	release.AddCatch(releaseFailed, &sfn.CatchProps{Errors: jsii.Strings("States.ALL"), ResultPath: jsii.String("$.releaseError")})
	release.Next(released)

	isValid := sfn.NewChoice(st, jsii.String("IsValid"), nil).
		When(sfn.Condition_BooleanEquals(jsii.String("$.results.validate.valid"), jsii.Bool(true)),
			hold.Next(send).Next(await).Next(settle).Next(done), nil).
		Otherwise(rejected)
	definition := validate.Next(isValid)

	logs := awslogs.NewLogGroup(st, jsii.String("WithdrawalLogs"), &awslogs.LogGroupProps{
		Retention:     awslogs.RetentionDays_THREE_MONTHS,
		RemovalPolicy: removalPolicy(cfg),
	})
	s.Withdrawal = sfn.NewStateMachine(st, jsii.String("Withdrawal"), &sfn.StateMachineProps{
		StateMachineName: jsii.String(cfg.prefix() + "-withdrawal"),
		DefinitionBody:   sfn.DefinitionBody_FromChainable(definition),
		StateMachineType: sfn.StateMachineType_STANDARD,
		Timeout:          awscdk.Duration_Days(jsii.Number(7)),
		Logs: &sfn.LogOptions{
			Destination:          logs,
			Level:                sfn.LogLevel_ERROR,
			IncludeExecutionData: jsii.Bool(false),
		},
	})
	awscdk.NewCfnOutput(st, jsii.String("WithdrawalStateMachineArn"), &awscdk.CfnOutputProps{Value: s.Withdrawal.StateMachineArn()})
	return s
}
