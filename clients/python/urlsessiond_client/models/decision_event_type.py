from enum import StrEnum


class DecisionEventType(StrEnum):
    DATATASK_DIDRECEIVERESPONSE = "dataTask.didReceiveResponse"
    DATATASK_WILLCACHERESPONSE = "dataTask.willCacheResponse"
    SESSION_DIDRECEIVECHALLENGE = "session.didReceiveChallenge"
    TASK_DIDRECEIVECHALLENGE = "task.didReceiveChallenge"
    TASK_WILLBEGINDELAYEDREQUEST = "task.willBeginDelayedRequest"
    TASK_WILLPERFORMHTTPREDIRECTION = "task.willPerformHTTPRedirection"

    def __str__(self) -> str:
        return str(self.value)
