package main

import (
	"context"
	"errors"
	"net/http"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The command serves function calling to the openai-go client with a
// real checkpoint: a request with tools, an assistant message with
// tool_calls and the tool message answering it gets an answer (a tool
// call or text, whichever the checkpoint writes); a tool_choice the
// server cannot honour is a 400 naming the allowed values.
func TestToolsThroughCommand(t *testing.T) {
	addr := serveInProcess(t, "-checkpoint", saveCheckpoint(t), "-name", "tiny")
	client := openai.NewClient(option.WithBaseURL("http://"+addr+"/v1"), option.WithAPIKey("none"), option.WithMaxRetries(0))
	python := openai.ChatCompletionFunctionTool(openai.FunctionDefinitionParam{Name: "python",
		Parameters: openai.FunctionParameters{"type": "object", "properties": map[string]any{"code": map[string]any{"type": "string"}}}})
	asst := openai.ChatCompletionAssistantMessageParam{ToolCalls: []openai.ChatCompletionMessageToolCallUnionParam{{
		OfFunction: &openai.ChatCompletionMessageFunctionToolCallParam{ID: "call_1",
			Function: openai.ChatCompletionMessageFunctionToolCallFunctionParam{Name: "python", Arguments: `{"code":"print(5)"}`}}}}}
	params := openai.ChatCompletionNewParams{Model: "tiny", Temperature: openai.Float(0), MaxCompletionTokens: openai.Int(8),
		Tools: []openai.ChatCompletionToolUnionParam{python},
		Messages: []openai.ChatCompletionMessageParamUnion{
			openai.UserMessage(`Guess the number between 1 and 10 in 4 turns. Answer \boxed{n}.`),
			{OfAssistant: &asst}, openai.ToolMessage("Code execution result: 5\n", "call_1")}}
	resp, err := client.Chat.Completions.New(context.Background(), params)
	require.NoError(t, err)
	require.Len(t, resp.Choices, 1)
	ch := resp.Choices[0]
	assert.Contains(t, []string{"stop", "length", "tool_calls"}, ch.FinishReason)
	assert.Equal(t, ch.FinishReason == "tool_calls", len(ch.Message.ToolCalls) == 1)

	params.ToolChoice = openai.ChatCompletionToolChoiceOptionUnionParam{OfAuto: openai.String("required")}
	_, err = client.Chat.Completions.New(context.Background(), params)
	var apiErr *openai.Error
	require.True(t, errors.As(err, &apiErr), "%v", err)
	assert.Equal(t, http.StatusBadRequest, apiErr.StatusCode)
	assert.Equal(t, "tool_choice", apiErr.Param)
	assert.Contains(t, apiErr.Message, `"none" and "auto"`)
}
