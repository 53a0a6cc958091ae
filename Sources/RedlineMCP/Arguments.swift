import Foundation
import MCP

/// A tool call's arguments, read with errors a model can act on.
struct Arguments {
    let values: [String: Value]
    let allowed: Set<String>

    init(_ values: [String: Value]?, allowed: [String]) throws {
        self.values = values ?? [:]
        self.allowed = Set(allowed)
        let unknown = self.values.keys.filter { !self.allowed.contains($0) }.sorted()
        if !unknown.isEmpty {
            throw ToolError("unknown argument(s) \(unknown.joined(separator: ", ")); expected \(allowed.joined(separator: ", "))")
        }
    }

    func string(_ key: String) throws -> String {
        guard let s = try optionalString(key) else { throw ToolError("missing required argument '\(key)' (a string)") }
        return s
    }

    func optionalString(_ key: String) throws -> String? {
        guard let v = values[key], v != .null else { return nil }
        switch v {
        case .string(let s): return s
        // The SDK reads a string that looks like a data: URL as data; give it back as the text it was.
        case .data(let mime, let d): return "data:\(mime ?? "");base64,\(d.base64EncodedString())"
        default: throw ToolError("argument '\(key)' must be a string")
        }
    }

    func optionalBool(_ key: String) throws -> Bool? {
        guard let v = values[key], v != .null else { return nil }
        guard case .bool(let b) = v else { throw ToolError("argument '\(key)' must be true or false") }
        return b
    }

    func optionalInt(_ key: String) throws -> Int? {
        guard let v = values[key], v != .null else { return nil }
        switch v {
        case .int(let i): return i
        case .double(let d) where d == d.rounded() && abs(d) < 1e15: return Int(d)
        default: throw ToolError("argument '\(key)' must be an integer")
        }
    }

    func strings(_ key: String) throws -> [String] {
        guard let v = values[key], v != .null else { return [] }
        if case .string(let s) = v { return [s] }
        guard case .array(let a) = v else { throw ToolError("argument '\(key)' must be an array of strings") }
        return try a.map {
            guard case .string(let s) = $0 else { throw ToolError("argument '\(key)' must be an array of strings") }
            return s
        }
    }

    func objects(_ key: String) throws -> [[String: Value]] {
        guard let v = values[key], v != .null else { throw ToolError("missing required argument '\(key)' (an array of objects)") }
        guard case .array(let a) = v else { throw ToolError("argument '\(key)' must be an array of objects") }
        return try a.enumerated().map { (n, e) in
            guard case .object(let o) = e else { throw ToolError("\(key)[\(n)] must be an object") }
            return o
        }
    }

    func oneOf(_ key: String, _ choices: [String]) throws -> String? {
        guard let s = try optionalString(key) else { return nil }
        guard choices.contains(s) else {
            throw ToolError("argument '\(key)' must be one of \(choices.joined(separator: ", ")), not '\(s)'")
        }
        return s
    }
}

/// JSON Schema building for tool inputs.
enum Schema {
    static func object(_ properties: [String: Value], required: [String]) -> Value {
        .object(["type": "object", "properties": .object(properties), "required": .array(required.map { .string($0) }),
                 "additionalProperties": false])
    }

    static func string(_ description: String) -> Value {
        .object(["type": "string", "description": .string(description)])
    }

    static func choice(_ choices: [String], _ description: String) -> Value {
        .object(["type": "string", "enum": .array(choices.map { .string($0) }), "description": .string(description)])
    }

    static func bool(_ description: String) -> Value {
        .object(["type": "boolean", "description": .string(description)])
    }

    static func integer(_ description: String, minimum: Int = 1) -> Value {
        .object(["type": "integer", "minimum": .int(minimum), "description": .string(description)])
    }

    static func strings(_ description: String) -> Value {
        .object(["type": "array", "items": .object(["type": "string"]), "description": .string(description)])
    }
}
