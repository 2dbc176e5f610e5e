from enum import StrEnum


class EventType(StrEnum):
    DATATASK_DIDBECOMEDOWNLOADTASK = "dataTask.didBecomeDownloadTask"
    DATATASK_DIDRECEIVEDATA = "dataTask.didReceiveData"
    DATATASK_DIDRECEIVERESPONSE = "dataTask.didReceiveResponse"
    DATATASK_WILLCACHERESPONSE = "dataTask.willCacheResponse"
    DOWNLOADTASK_DIDFINISHDOWNLOADINGTO = "downloadTask.didFinishDownloadingTo"
    DOWNLOADTASK_DIDRESUMEATOFFSET = "downloadTask.didResumeAtOffset"
    DOWNLOADTASK_DIDWRITEDATA = "downloadTask.didWriteData"
    SESSION_DIDBECOMEINVALIDWITHERROR = "session.didBecomeInvalidWithError"
    SESSION_DIDFINISHEVENTSFORBACKGROUNDURLSESSION = "session.didFinishEventsForBackgroundURLSession"
    SESSION_DIDRECEIVECHALLENGE = "session.didReceiveChallenge"
    STREAMTASK_READCLOSED = "streamTask.readClosed"
    STREAMTASK_WRITECLOSED = "streamTask.writeClosed"
    TASK_COMPLETION = "task.completion"
    TASK_DIDCOMPLETEWITHERROR = "task.didCompleteWithError"
    TASK_DIDCREATETASK = "task.didCreateTask"
    TASK_DIDDROPMIRROR = "task.didDropMirror"
    TASK_DIDFINISHCOLLECTINGMETRICS = "task.didFinishCollectingMetrics"
    TASK_DIDRECEIVECHALLENGE = "task.didReceiveChallenge"
    TASK_DIDRECEIVEINFORMATIONALRESPONSE = "task.didReceiveInformationalResponse"
    TASK_DIDREJECTPIECE = "task.didRejectPiece"
    TASK_DIDSENDBODYDATA = "task.didSendBodyData"
    TASK_NEEDNEWBODYSTREAM = "task.needNewBodyStream"
    TASK_TASKISWAITINGFORCONNECTIVITY = "task.taskIsWaitingForConnectivity"
    TASK_WILLBEGINDELAYEDREQUEST = "task.willBeginDelayedRequest"
    TASK_WILLPERFORMHTTPREDIRECTION = "task.willPerformHTTPRedirection"
    WEBSOCKETTASK_DIDCLOSEWITH = "webSocketTask.didCloseWith"
    WEBSOCKETTASK_DIDOPENWITHPROTOCOL = "webSocketTask.didOpenWithProtocol"
    WEBSOCKETTASK_DIDRECEIVEMESSAGE = "webSocketTask.didReceiveMessage"

    def __str__(self) -> str:
        return str(self.value)
