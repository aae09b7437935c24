internal import Understudy

/// A reply that is not a flavour's own error (a body of the wrong shape, an unsupported content type), thrown from
/// a route handler.
struct Refusal: ReplyingError {
    var reply: Reply
}

extension Exchange {
    /// The JSON body as an object's members, nil for an empty body; refusals in `area`'s shape for a body that
    /// is not JSON or not an object, and for a content type `accepts` refuses (nil: any content type).
    func jsonObject(_ area: RouteArea, accepts: ((String) -> Bool)? = nil, expected: String = "application/json") throws(Refusal)
        -> [JSON.Member]?
    {
        if let accepts, let type = mediaType, !accepts(type) {
            throw Refusal(reply: ServerFailures.unsupportedMediaType(area, got: type, expected: expected))
        }
        switch json {
        case .failure(let error): throw Refusal(reply: ServerFailures.malformedBody(area, error))
        case .success(nil): return nil
        case .success(.object(let members)?): return members
        case .success(let other?):
            throw Refusal(reply: ServerFailures.wrongBody(area, expected: "a JSON object", got: other.kindName))
        }
    }
}
